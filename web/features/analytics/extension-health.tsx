import { useTranslation } from 'react-i18next';
import { BOARD_NAMES } from '../../../worker/history/boards';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-analytics.json';
import { errorText } from '../../i18n/errors';
import { api } from '../../lib/api-client';
import { dateAndTime } from '../../lib/format';
import { type Data, useGet } from '../../lib/use-api';

addEnglish(english);

type Summary = Data<typeof api.extension.health.$get>;
type Version = Summary['versions'][number];

/** What each counted field is, in the words of the board (catalogue keys). */
const FIELD_LABELS: Record<Version['fields'][number]['field'], string> = {
  company: 'extHealth.company',
  origin: 'extHealth.origin',
  destination: 'extHealth.destination',
  pickup: 'extHealth.pickup',
  rate: 'extHealth.rate',
  contact: 'extHealth.contact',
  trip: 'extHealth.trip',
  equipment: 'extHealth.equipment',
  detailsPickup: 'extHealth.detailsPickup',
  detailsReference: 'extHealth.detailsReference',
  detailsContact: 'extHealth.detailsContact',
  detailsMc: 'extHealth.detailsMc',
  signalSmallCells: 'extHealth.signalSmallCells',
  signalWideCells: 'extHealth.signalWideCells',
  signalPickupCell: 'extHealth.signalPickupCell',
  signalContactCell: 'extHealth.signalContactCell',
};
/** Layout signals are counts of what rows showed, not fields read: no good or bad share. */
const isSignal = (field: string) => field.startsWith('signal');

const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);
/** Under 90 % read is worth a look; under half, the board has most likely changed. */
const shareClass = (share: number | null) => (share === null ? 'pill-off' : share < 0.5 ? 'pill-bad' : share < 0.9 ? 'pill-warn' : 'pill-ok');

function VersionBlock({ v }: { v: Version }) {
  const { t } = useTranslation();
  const fields = v.fields.filter((f) => !isSignal(f.field));
  const signals = v.fields.filter((f) => isSignal(f.field));
  const layouts = Object.entries(v.layouts)
    .map(([layout, n]) => `${layout} ${n}`)
    .join(', ');
  return (
    <div className="ext-health-version" data-testid={`ext-health-${v.board}-${v.version}`}>
      <h4>
        {t('extHealth.version', { version: v.version })}{' '}
        {v.unreadableReports > 0 && <span className="label-pill pill-bad">{t('extHealth.unreadable', { count: v.unreadableReports })}</span>}
      </h4>
      <p className="muted">
        {t('extHealth.reports', { count: v.reports })} {t('extHealth.fromBrowsers', { count: v.browsers })} · {t('extHealth.loadsSeen', { count: v.rowsSeen })}{' '}
        · {t('extHealth.layouts')} {layouts || '–'} · {t('extHealth.last', { date: dateAndTime(v.lastAt) })}
      </p>
      <div className="table-scroll">
        <table>
          <caption className="sr-only">{t('extHealth.caption', { version: v.version })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('extHealth.colField')}</th>
              <th scope="col">{t('extHealth.colRead')}</th>
              <th scope="col">{t('extHealth.colMissed')}</th>
              <th scope="col">{t('extHealth.colShare')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.field}>
                <th scope="row">{FIELD_LABELS[f.field] ? t(FIELD_LABELS[f.field]) : f.field}</th>
                <td>{f.read}</td>
                <td>{f.missed}</td>
                <td>
                  <span className={`label-pill ${shareClass(f.share)}`}>{percent(f.share)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {signals.length > 0 && (
        <p className="muted" data-testid="layout-signals">
          {t('extHealth.signals')}{' '}
          {signals.map((f) => t('extHealth.signalCount', { signal: t(FIELD_LABELS[f.field]), count: f.read, total: f.read + f.missed })).join(' · ')}
        </p>
      )}
    </div>
  );
}

/** One board's reports, by version: each board's fields apart, so a board that stops being read shows on its own. */
function BoardBlock({ board, versions }: { board: Version['board']; versions: Version[] }) {
  const { t } = useTranslation();
  return (
    <section className="ext-health-board" data-testid={`ext-health-board-${board}`} aria-labelledby={`ext-health-board-${board}`}>
      <h3 id={`ext-health-board-${board}`}>{BOARD_NAMES[board]}</h3>
      {versions.length ? (
        versions.map((v) => <VersionBlock key={v.version} v={v} />)
      ) : (
        <p className="muted">{t('extHealth.boardEmpty', { board: BOARD_NAMES[board] })}</p>
      )}
    </section>
  );
}

/**
 * The load-board extension's health reports of the last 7 days, per board and extension version:
 * how many rows of each board it could read, per field. A board release that breaks reading shows
 * here the same day (docs/decisions/0145-board-alarm.md). Admin only, on the Analytics screen.
 */
export function ExtensionHealth() {
  const { t } = useTranslation();
  const { data, error, isLoading, isValidating, mutate } = useGet(api.extension.health, { query: {} }, { revalidateOnFocus: false });
  return (
    <Card
      title={t('extHealth.title')}
      actions={
        <Button variant="secondary" onClick={() => void mutate()} disabled={isValidating}>
          {isValidating ? t('analytics.loading') : t('extHealth.refresh')}
        </Button>
      }
    >
      <div className="ext-health" data-testid="extension-health">
        {isLoading && !data ? (
          <Spinner label={t('extHealth.loadingReports')} />
        ) : error && !data ? (
          <ErrorText>{t('extHealth.loadFailed', { error: errorText(error) })}</ErrorText>
        ) : data?.versions.length ? (
          (Object.keys(BOARD_NAMES) as Version['board'][]).map((board) => (
            <BoardBlock key={board} board={board} versions={data.versions.filter((v) => v.board === board)} />
          ))
        ) : (
          <p className="muted">{t('extHealth.empty')}</p>
        )}
      </div>
    </Card>
  );
}
