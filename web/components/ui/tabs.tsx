import { Tabs as RadixTabs } from 'radix-ui';
import type { ReactNode } from 'react';
import { useUrlState } from '../../lib/use-url-state';

/**
 * Tabs (radix Tabs: arrow keys move between tabs). With `urlKey` the open tab lives in the query
 * string (rule 0133), so a reload, Back and a shared link open the same tab.
 */
export function Tabs({ tabs, defaultValue, urlKey }: { tabs: { value: string; label: string; content: ReactNode }[]; defaultValue?: string; urlKey?: string }) {
  const first = defaultValue ?? tabs[0]?.value ?? '';
  const [fromUrl, setUrl] = useUrlState(urlKey ?? 'tab', first);
  const known = tabs.some((t) => t.value === fromUrl);
  return (
    <RadixTabs.Root className="tabs" {...(urlKey ? { value: known ? fromUrl : first, onValueChange: setUrl } : { defaultValue: first })}>
      <RadixTabs.List className="tabs-list">
        {tabs.map((t) => (
          <RadixTabs.Trigger key={t.value} value={t.value} className="tabs-trigger">
            {t.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.map((t) => (
        <RadixTabs.Content key={t.value} value={t.value} className="tabs-content">
          {t.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
