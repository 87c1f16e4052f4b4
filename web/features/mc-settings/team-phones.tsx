import { useEffect, useId, useMemo, useState } from 'react';
import { type Dialer, dialUrl } from '../../../worker/team/dialer';
import { teamSettingsInputSchema } from '../../../worker/team/team.schema';
import { LINE_NUMBERS } from '../../../worker/mc-settings/mc-settings.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { useRequest } from '../../lib/use-request';
import { saveTeamSettings, type TeamSettingsDto, useTeamSettings } from './api';

const DIALER_LABELS: Record<Dialer, string> = {
  tel: 'The computer’s phone app (tel: links)',
  dialpad: 'Dialpad, calling from the line’s number',
  template: 'Another phone system (a URL template)',
};

type Row = { callerNumber: string; label: string };
const emptyRows = (): Row[] => LINE_NUMBERS.map(() => ({ callerNumber: '', label: '' }));

function rowsOf(settings: TeamSettingsDto): Row[] {
  const rows = emptyRows();
  for (const l of settings.lines) rows[l.line - 1] = { callerNumber: l.callerNumber, label: l.label };
  return rows;
}

/**
 * Team phone lines (on Lines): for each line 1 to 6 the number brokers see calling and a label,
 * and the dialer "Call on line N" opens on the board. The manager edits them; agents see them.
 */
export function TeamPhones() {
  const { data, isLoading, mutate } = useTeamSettings();
  const [rows, setRows] = useState<Row[]>(emptyRows);
  const [dialer, setDialer] = useState<Dialer>('tel');
  const [template, setTemplate] = useState('');
  const [markers, setMarkers] = useState(true);
  const [windowHours, setWindowHours] = useState('12');
  const windowId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const { loading, run } = useRequest();
  const templateId = useId();

  useEffect(() => {
    if (!data) return;
    setRows(rowsOf(data));
    setDialer(data.dialer);
    setTemplate(data.dialerTemplate);
    setMarkers(data.contactMarkers);
    setWindowHours(String(data.contactWindowHours));
  }, [data]);

  const input = useMemo(
    () => ({
      dialer,
      dialerTemplate: template,
      lines: rows.flatMap((r, i) => (r.callerNumber.trim() || r.label.trim() ? [{ line: i + 1, callerNumber: r.callerNumber, label: r.label }] : [])),
      contactMarkers: markers,
      // a typed value that is not a whole number is refused by the schema with its message
      contactWindowHours: /^\d+$/.test(windowHours.trim()) ? Number(windowHours) : Number.NaN,
    }),
    [dialer, template, rows, markers, windowHours],
  );
  const dirty =
    !!data &&
    JSON.stringify([data.dialer, data.dialerTemplate, rowsOf(data), data.contactMarkers, String(data.contactWindowHours)]) !==
      JSON.stringify([dialer, template, rows, markers, windowHours]);

  if (isLoading || !data) return <Card title="Team phone lines">{isLoading ? <Spinner /> : null}</Card>;

  if (!data.canEdit) {
    return (
      <Card title="Team phone lines">
        {data.lines.length === 0 ? (
          <p className="muted">Your manager has not set the team’s caller numbers yet: Call on line N shows the line to pick in your phone app.</p>
        ) : (
          <>
            <p className="muted">Call on line N on the board calls from the line’s number. {DIALER_LABELS[data.dialer]}.</p>
            <p className="muted">
              {data.contactMarkers
                ? `The board shows who of the team called or e-mailed a broker in the last ${data.contactWindowHours} hours.`
                : 'Your manager turned off the board’s “contacted by the team” markers.'}
            </p>
            <ul className="team-lines-view" data-testid="team-lines">
              {data.lines.map((l) => (
                <li key={l.line}>
                  <strong>Line {l.line}</strong> {l.callerNumber}
                  {l.label && <span className="muted"> · {l.label}</span>}
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    );
  }

  const save = async () => {
    const checked = teamSettingsInputSchema.safeParse(input);
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? 'Something went wrong');
      return;
    }
    setProblem(null);
    const res = await run(() => saveTeamSettings(input), { success: (r) => r.message });
    if (res) await mutate(res.settings, { revalidate: false });
  };
  const example = rows.findIndex((r) => r.callerNumber.trim());
  const exampleLine = example >= 0 ? example + 1 : 1;
  const exampleFrom = teamSettingsInputSchema.safeParse({ dialer: 'tel', lines: [{ line: exampleLine, callerNumber: rows[exampleLine - 1]!.callerNumber }] });
  const exampleUrl =
    dialer !== 'template' || template.trim()
      ? dialUrl(dialer, template, {
          to: '+15135550142',
          from: exampleFrom.success ? (exampleFrom.data.lines[0]?.callerNumber ?? '') : '',
          line: exampleLine,
        })
      : '';

  return (
    <Card
      title="Team phone lines"
      actions={
        <Button onClick={() => void save()} disabled={!dirty || loading}>
          Save Team Lines
        </Button>
      }
    >
      <p className="muted">
        The number brokers see when an agent calls on each line, in international format (+1 312 555 0100). An MC on line 2 calls from line 2’s number.
      </p>
      <table className="team-lines" aria-label="Team phone lines">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Caller number</th>
            <th scope="col">Label</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={LINE_NUMBERS[i]}>
              <th scope="row">{i + 1}</th>
              <td>
                <input
                  aria-label={`Line ${i + 1} caller number`}
                  inputMode="tel"
                  placeholder="+1 312 555 0100"
                  value={r.callerNumber}
                  onChange={(e) => setRows(rows.map((x, k) => (k === i ? { ...x, callerNumber: e.target.value } : x)))}
                />
              </td>
              <td>
                <input
                  aria-label={`Line ${i + 1} label`}
                  placeholder="e.g. Chicago desk"
                  maxLength={40}
                  value={r.label}
                  onChange={(e) => setRows(rows.map((x, k) => (k === i ? { ...x, label: e.target.value } : x)))}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <fieldset className="dialer-choice">
        <legend>Call on line N opens</legend>
        {(Object.keys(DIALER_LABELS) as Dialer[]).map((d) => (
          <label key={d} className="radio">
            <input type="radio" name="dialer" value={d} checked={dialer === d} onChange={() => setDialer(d)} /> {DIALER_LABELS[d]}
          </label>
        ))}
        {dialer === 'template' && (
          <div className="field">
            <label htmlFor={templateId}>URL template</label>
            <input
              id={templateId}
              placeholder="https://pbx.example.com/call?to={to}&from={from}"
              value={template}
              onChange={(e) => setTemplate(e.target.value)}
            />
            <div className="field-hint">
              {'{to}'} the broker’s number, {'{from}'} the line’s caller number, {'{line}'} the line (1 to 6). https:// or the phone app’s own scheme.
            </div>
          </div>
        )}
        {dialer === 'tel' && <p className="field-hint">A tel: link carries no caller number: the board shows the agent which line to pick in the phone app.</p>}
        {exampleUrl && (
          <p className="field-hint dialer-example">
            Example, a call on line {exampleLine}: <code data-testid="dialer-example">{exampleUrl}</code>
          </p>
        )}
      </fieldset>
      <fieldset className="dialer-choice">
        <legend>On the load board</legend>
        <label className="radio">
          <input type="checkbox" checked={markers} onChange={(e) => setMarkers(e.target.checked)} /> Show who of the team called or e-mailed a broker (“Called
          by Anna · 14:02 · L2”)
        </label>
        <div className="field window-field">
          <label htmlFor={windowId}>Look back (hours, 1 to 48)</label>
          <input id={windowId} inputMode="numeric" value={windowHours} disabled={!markers} onChange={(e) => setWindowHours(e.target.value)} />
        </div>
      </fieldset>
      <ErrorText>{problem}</ErrorText>
      {dirty && <p className="muted unsaved">Unsaved team lines: press Save Team Lines.</p>}
    </Card>
  );
}
