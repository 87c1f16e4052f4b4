import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LINE_NUMBERS } from '../../../worker/mc-settings/mc-settings.schema';
import { type Dialer, dialUrl } from '../../../worker/team/dialer';
import { teamSettingsInputSchema } from '../../../worker/team/team.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { messageText } from '../../i18n/errors';
import { useRequest } from '../../lib/use-request';
import { saveTeamSettings, type TeamSettingsDto, useTeamSettings } from './api';

/** Each dialer's name as a catalogue key. */
const DIALER_LABELS: Record<Dialer, `teamPhones.dialer${'Tel' | 'Dialpad' | 'Template'}`> = {
  tel: 'teamPhones.dialerTel',
  dialpad: 'teamPhones.dialerDialpad',
  template: 'teamPhones.dialerTemplate',
};

/** The URL template field's example (a URL, the same in every language). */
const TEMPLATE_EXAMPLE = 'https://pbx.example.com/call?to={to}&from={from}';

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
  const { t } = useTranslation();
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

  if (isLoading || !data) return <Card title={t('teamPhones.title')}>{isLoading ? <Spinner /> : null}</Card>;

  if (!data.canEdit) {
    return (
      <Card title={t('teamPhones.title')}>
        {data.lines.length === 0 ? (
          <p className="muted">{t('teamPhones.notSet')}</p>
        ) : (
          <>
            <p className="muted">{t('teamPhones.callsFrom', { dialer: t(DIALER_LABELS[data.dialer]) })}</p>
            <p className="muted">{data.contactMarkers ? t('teamPhones.markersOn', { hours: data.contactWindowHours }) : t('teamPhones.markersOff')}</p>
            <ul className="team-lines-view" data-testid="team-lines">
              {data.lines.map((l) => (
                <li key={l.line}>
                  <strong>{t('teamPhones.lineN', { line: l.line })}</strong> {l.callerNumber}
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
    const res = await run(() => saveTeamSettings(input), { success: () => t('linesMessages.teamSaved') });
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
      title={t('teamPhones.title')}
      actions={
        <Button onClick={() => void save()} disabled={!dirty || loading}>
          {t('teamPhones.save')}
        </Button>
      }
    >
      <p className="muted">{t('teamPhones.intro')}</p>
      <table className="team-lines" aria-label={t('teamPhones.title')}>
        <thead>
          <tr>
            <th scope="col">{t('teamPhones.line')}</th>
            <th scope="col">{t('teamPhones.callerNumber')}</th>
            <th scope="col">{t('teamPhones.label')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={LINE_NUMBERS[i]}>
              <th scope="row">{i + 1}</th>
              <td>
                <input
                  aria-label={t('teamPhones.callerNumberOf', { line: i + 1 })}
                  inputMode="tel"
                  placeholder="+1 312 555 0100"
                  value={r.callerNumber}
                  onChange={(e) => setRows(rows.map((x, k) => (k === i ? { ...x, callerNumber: e.target.value } : x)))}
                />
              </td>
              <td>
                <input
                  aria-label={t('teamPhones.labelOf', { line: i + 1 })}
                  placeholder={t('teamPhones.labelPlaceholder')}
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
        <legend>{t('teamPhones.opens')}</legend>
        {(Object.keys(DIALER_LABELS) as Dialer[]).map((d) => (
          <label key={d} className="radio">
            <input type="radio" name="dialer" value={d} checked={dialer === d} onChange={() => setDialer(d)} /> {t(DIALER_LABELS[d])}
          </label>
        ))}
        {dialer === 'template' && (
          <div className="field">
            <label htmlFor={templateId}>{t('teamPhones.urlTemplate')}</label>
            <input id={templateId} placeholder={TEMPLATE_EXAMPLE} value={template} onChange={(e) => setTemplate(e.target.value)} />
            <div className="field-hint">{t('teamPhones.templateHint', { to: '{to}', from: '{from}', line: '{line}' })}</div>
          </div>
        )}
        {dialer === 'tel' && <p className="field-hint">{t('teamPhones.telHint')}</p>}
        {exampleUrl && (
          <p className="field-hint dialer-example">
            {t('teamPhones.example', { line: exampleLine })} <code data-testid="dialer-example">{exampleUrl}</code>
          </p>
        )}
      </fieldset>
      <fieldset className="dialer-choice">
        <legend>{t('teamPhones.onBoard')}</legend>
        <label className="radio">
          <input type="checkbox" checked={markers} onChange={(e) => setMarkers(e.target.checked)} /> {t('teamPhones.markers')}
        </label>
        <div className="field window-field">
          <label htmlFor={windowId}>{t('teamPhones.lookBack')}</label>
          <input id={windowId} inputMode="numeric" value={windowHours} disabled={!markers} onChange={(e) => setWindowHours(e.target.value)} />
        </div>
      </fieldset>
      <ErrorText>{messageText(problem)}</ErrorText>
      {dirty && <p className="muted unsaved">{t('teamPhones.unsaved')}</p>}
    </Card>
  );
}
