import type { ReactNode } from 'react';
import { useColumnLabels } from '../../lib/use-column-labels';

/**
 * A small table that turns into cards below 768 px (`cards-narrow`: each cell labelled by its
 * column's header). `actions` names the last, unlabelled column for screen readers.
 */
export function CardsTable(props: { columns: string[]; actions?: string; className?: string; testId?: string; children: ReactNode }) {
  const labelColumns = useColumnLabels<HTMLTableElement>();
  return (
    <div className="table-scroll">
      <table className={['cards-narrow', props.className].filter(Boolean).join(' ')} ref={labelColumns} data-testid={props.testId}>
        <thead>
          <tr>
            {props.columns.map((name) => (
              <th key={name}>{name}</th>
            ))}
            {props.actions && (
              <th>
                <span className="sr-only">{props.actions}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
