import type { LegendPayload } from 'recharts';

/**
 * A chart's legend, `<Legend content={ChartLegend} />`: each series' name beside its colour, the
 * icon hidden from screen readers. Recharts' own legend names every icon "<series> legend icon",
 * in English whatever the screen's language (docs/decisions/0178-no-english-left.md).
 */
export function ChartLegend({ payload }: { payload?: readonly LegendPayload[] }) {
  const shown = (payload ?? []).filter((entry) => entry.type !== 'none');
  if (shown.length === 0) return null;
  return (
    <ul className="chart-legend">
      {shown.map((entry) => (
        <li key={String(entry.dataKey ?? entry.value)}>
          <svg width="14" height="14" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            {entry.type === 'line' ? (
              <path strokeWidth={4} fill="none" stroke={entry.color} d="M0,16h10.667A5.333,5.333,0,1,1,21.333,16H32M21.333,16A5.333,5.333,0,1,1,10.667,16" />
            ) : (
              <rect y="4" width="32" height="24" fill={entry.color} />
            )}
          </svg>
          {entry.value}
        </li>
      ))}
    </ul>
  );
}
