import { Tabs as RadixTabs } from 'radix-ui';
import type { ReactNode } from 'react';

/** Tabs (radix Tabs: arrow keys move between tabs). */
export function Tabs({ tabs, defaultValue }: { tabs: { value: string; label: string; content: ReactNode }[]; defaultValue?: string }) {
  return (
    <RadixTabs.Root className="tabs" defaultValue={defaultValue ?? tabs[0]?.value}>
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
