import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { api } from '../../lib/api-client';
import { dateAndTime } from '../../lib/format';
import { type Data, useGet } from '../../lib/use-api';

type Summary = Data<typeof api.extension.health.$get>;
type Version = Summary['versions'][number];

/** What each counted field is, in the words of the board. */
const FIELD_LABELS: Record<Version['fields'][number]['field'], string> = {
  company: 'Company name',
  origin: 'Origin',
  destination: 'Destination',
  pickup: 'Pick-up date (row)',
  rate: 'Rate',
  contact: 'Contact (row)',
  trip: 'Trip miles',
  equipment: 'Equipment',
  detailsPickup: 'Pick-up date (details)',
  detailsReference: 'Reference ID (details)',
  detailsContact: 'Contact (details)',
  detailsMc: 'MC number (details)',
};

const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);
/** Under 90 % read is worth a look; under half, the board has most likely changed. */
const shareClass = (share: number | null) => (share === null ? 'pill-off' : share < 0.5 ? 'pill-bad' : share < 0.9 ? 'pill-warn' : 'pill-ok');

function VersionBlock({ v }: { v: Version }) {
  const layouts = Object.entries(v.layouts)
    .map(([layout, n]) => `${layout} ${n}`)
    .join(', ');
  return (
    <div className="ext-health-version" data-testid={`ext-health-${v.version}`}>
      <h3>
        Version {v.version}{' '}
        {v.unreadableReports > 0 && (
          <span className="label-pill pill-bad">
            Could not read the page in {v.unreadableReports} report{v.unreadableReports === 1 ? '' : 's'}
          </span>
        )}
      </h3>
      <p className="muted">
        {v.reports} report{v.reports === 1 ? '' : 's'} from {v.browsers} browser{v.browsers === 1 ? '' : 's'} · {v.rowsSeen} loads seen · layouts:{' '}
        {layouts || '–'} · last {dateAndTime(v.lastAt)}
      </p>
      <div className="table-scroll">
        <table>
          <caption className="sr-only">Rows read per field by version {v.version}</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Read</th>
              <th scope="col">Not read</th>
              <th scope="col">Share read</th>
            </tr>
          </thead>
          <tbody>
            {v.fields.map((f) => (
              <tr key={f.field}>
                <th scope="row">{FIELD_LABELS[f.field]}</th>
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
    </div>
  );
}

/**
 * The load-board extension's health reports of the last 7 days, by extension version: how many rows
 * of DAT's board it could read, per field. A DAT release that breaks reading shows here the same day
 * (docs/decisions/0145-board-alarm.md). Admin only, on the Analytics screen.
 */
export function ExtensionHealth() {
  const { data, error, isLoading, isValidating, mutate } = useGet(api.extension.health, { query: {} }, { revalidateOnFocus: false });
  return (
    <Card
      title="Load-board extension: what it reads on DAT (last 7 days)"
      actions={
        <Button variant="secondary" onClick={() => void mutate()} disabled={isValidating}>
          {isValidating ? 'Loading…' : 'Refresh'}
        </Button>
      }
    >
      <div className="ext-health" data-testid="extension-health">
        {isLoading && !data ? (
          <Spinner label="Loading the extension's reports" />
        ) : error && !data ? (
          <ErrorText>Could not load the extension's reports: {error instanceof Error ? error.message : 'Something went wrong'}</ErrorText>
        ) : data?.versions.length ? (
          data.versions.map((v) => <VersionBlock key={v.version} v={v} />)
        ) : (
          <p className="muted">No reports yet. Each browser with the extension sends one at most once an hour while a DAT board is open.</p>
        )}
      </div>
    </Card>
  );
}
