import { type ChangeEvent, useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { MAX_IMPORT_ROWS } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { FileInput } from '../../components/ui/file-input';
import { api } from '../../lib/api-client';
import { formatLocale } from '../../lib/format-dates';
import { keyOf } from '../../lib/use-api';
import { useRequest } from '../../lib/use-request';
import { type ImportPreview, type ImportRowInput, previewImport, runImport } from './api';
import './filters.css';
import { messageText } from '../../i18n/errors';
import { useColumnLabels } from '../../lib/use-column-labels';

/** The CSV headers the import reads (any case, spaces or underscores), as the export writes them. */
const HEADERS: Record<string, keyof ImportRowInput> = {
  name: 'name',
  companyname: 'name',
  company: 'name',
  type: 'type',
  typename: 'type',
  comment: 'comment',
  contacts: 'contacts',
  mcnumber: 'mcNumber',
  mc: 'mcNumber',
  dotnumber: 'dotNumber',
  dot: 'dotNumber',
  usdot: 'dotNumber',
};
const headerKey = (h: string) => HEADERS[h.toLowerCase().replace(/[^a-z]/g, '')];

const OUTCOME_LABEL = { create: 'importFilters.outcomeCreate', match: 'importFilters.outcomeMatch', refuse: 'importFilters.outcomeRefuse' } as const;
/** The intro's column names, <0>…</0> to <6>…</6> in its text. */
const CODES = ['name', 'type', 'comment', 'contacts', 'separator', 'mcNumber', 'dotNumber'].map((column) => <code key={column} />);
/** The preview lists at most this many rows. */
const SHOWN_ROWS = 1000;
const OUTCOME_PILL = { create: 'pill-ok', match: 'pill-off', refuse: 'pill-bad' } as const;

/**
 * Import filters (/companyFilters/import, managers): pick a CSV (name, type, comment, contacts,
 * MC number, DOT number), see what the server would do with each row, then import in one write.
 * The CSV parser (papaparse) is loaded only on this screen.
 */
export default function ImportFilters() {
  const { t } = useTranslation();
  const labelColumns = useColumnLabels<HTMLTableElement>();
  const navigate = useNavigate();
  const [fileName, setFileName] = useState('');
  const [rows, setRows] = useState<ImportRowInput[] | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [show, setShow] = useState<'all' | 'create' | 'match' | 'refuse'>('all');
  const req = useRequest();
  const { mutate } = useSWRConfig();

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    setPreview(null);
    setRows(null);
    setProblem(null);
    if (!file) return;
    setFileName(file.name);
    const { default: Papa } = await import('papaparse');
    const parsed = Papa.parse<Record<string, string>>((await file.text()).replace(/^\ufeff/, ''), { header: true, skipEmptyLines: 'greedy' });
    const fields = parsed.meta.fields ?? [];
    if (!fields.some((f) => headerKey(f) === 'name')) {
      setProblem(t('importFilters.noHeader'));
      return;
    }
    if (parsed.data.length > MAX_IMPORT_ROWS) {
      setProblem(t('importFilters.tooMany', { max: MAX_IMPORT_ROWS, count: parsed.data.length }));
      return;
    }
    const list = parsed.data.map((record) => {
      const row: ImportRowInput = { name: '', type: '', comment: '', contacts: '', mcNumber: '', dotNumber: '' };
      for (const [h, value] of Object.entries(record)) {
        const key = headerKey(h);
        if (key && typeof value === 'string') row[key] = value;
      }
      return row;
    });
    setRows(list);
    const res = await req.run(() => previewImport(list));
    if (res) setPreview(res);
  };

  const confirm = async () => {
    if (!rows) return;
    const res = await req.run(() => runImport(rows), {
      success: (r) => (r.create ? t('importFilters.imported', { count: r.create }) : t('importFilters.nothing')),
    });
    if (!res) return;
    // every cached search and the name list show the imported filters
    const search = keyOf(api.broker.index);
    const names = keyOf(api.broker.allNames);
    await mutate((key) => (Array.isArray(key) && key[0] === search) || key === names);
    navigate('/companyFilters');
  };

  const shown = useMemo(() => (preview?.rows ?? []).filter((r) => show === 'all' || r.outcome === show), [preview, show]);

  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('importFilters.title')}</h1>
        <div className="card-actions">
          <Link className="btn btn-link" to="/companyFilters">
            {t('importFilters.brokerFiltering')}
          </Link>
        </div>
      </div>
      <section className="card">
        <p>
          <Trans i18nKey="importFilters.intro" components={CODES} />
        </p>
        <FileInput label={t('importFilters.file')} accept=".csv,text/csv" onChange={pick} />
        <ErrorText>{problem}</ErrorText>
      </section>
      {preview && (
        <section className="card" data-testid="import-preview">
          <div className="import-summary">
            <strong>{fileName}</strong>: {t('importFilters.summary', { create: preview.create, match: preview.match, refuse: preview.refuse })}
          </div>
          <div className="form-row">
            <select aria-label={t('importFilters.showRows')} value={show} onChange={(e) => setShow(e.target.value as typeof show)}>
              <option value="all">{t('importFilters.allRows', { count: preview.rows.length })}</option>
              <option value="create">{t('importFilters.toCreate', { count: preview.create })}</option>
              <option value="match">{t('importFilters.matching', { count: preview.match })}</option>
              <option value="refuse">{t('importFilters.refused', { count: preview.refuse })}</option>
            </select>
            <Button onClick={confirm} disabled={req.loading || preview.create === 0}>
              {t('importFilters.import', { count: preview.create })}
            </Button>
          </div>
          <div className="table-wrap import-table">
            <table className="table cards-narrow" ref={labelColumns}>
              <thead>
                <tr>
                  <th>{t('importFilters.colRow')}</th>
                  <th>{t('importFilters.colName')}</th>
                  <th>{t('importFilters.colOutcome')}</th>
                  <th>{t('importFilters.colDetail')}</th>
                </tr>
              </thead>
              <tbody>
                {shown.slice(0, SHOWN_ROWS).map((r) => (
                  <tr key={r.row}>
                    <td>{r.row}</td>
                    <td>{r.name || <span className="muted">{t('importFilters.emptyName')}</span>}</td>
                    <td>
                      <span className={`label-pill ${OUTCOME_PILL[r.outcome]}`}>{t(OUTCOME_LABEL[r.outcome])}</span>
                    </td>
                    <td>{messageText(r.detail, r.code)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {shown.length > SHOWN_ROWS && (
              <p className="muted">{t('importFilters.firstRows', { max: SHOWN_ROWS.toLocaleString(formatLocale()), count: shown.length })}</p>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
