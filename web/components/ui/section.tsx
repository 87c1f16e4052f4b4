import { Collapsible } from 'radix-ui';
import { type ReactNode, useState } from 'react';

export function CollapsibleSection({ title, defaultOpen = false, children }: { title: ReactNode; defaultOpen?: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="collapsible">
      <Collapsible.Trigger className="collapsible-trigger">
        <span>{title}</span>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
      </Collapsible.Trigger>
      <Collapsible.Content className="collapsible-content">{children}</Collapsible.Content>
    </Collapsible.Root>
  );
}

/** A card; `headingLevel` 1 when its title is the screen's heading (a form that is the whole screen). */
export function Card({ title, actions, headingLevel = 2, children }: { title?: ReactNode; actions?: ReactNode; headingLevel?: 1 | 2; children: ReactNode }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="card">
      {(title || actions) && (
        <header className="card-header">
          {title && <Heading className={headingLevel === 1 ? 'card-title-h1' : undefined}>{title}</Heading>}
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

export function Stat({ label, note, testId, children }: { label: string; note?: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <div className="stat" data-testid={testId}>
      <span className="stat-label">{label}</span>
      <strong>{children}</strong>
      {note && <span className="muted">{note}</span>}
    </div>
  );
}
