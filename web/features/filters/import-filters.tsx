import { type ChangeEvent, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { MAX_IMPORT_ROWS } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { keyOf } from '../../lib/use-api';
import { useRequest } from '../../lib/use-request';
import { type ImportPreview, type ImportRowInput, previewImport, runImport } from './api';
import './filters.css';
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

const OUTCOME_LABEL = { create: 'Will be created', match: 'Matches existing', refuse: 'Refused' } as const;
const OUTCOME_PILL = { create: 'pill-ok', match: 'pill-off', refuse: 'pill-bad' } as const;

/**
 * Import filters (/companyFilters/import, managers): pick a CSV (name, type, comment, contacts,
 * MC number, DOT number), see what the server would do with each row, then import in one write.
 * The CSV parser (papaparse) is loaded only on this screen.
 */
export default function ImportFilters() {
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
      setProblem('The first line must name the columns: name, type, comment, contacts, mcNumber, dotNumber');
      return;
    }
    if (parsed.data.length > MAX_IMPORT_ROWS) {
      setProblem(`At most ${MAX_IMPORT_ROWS} rows per import; this file has ${parsed.data.length}`);
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
    const res = await req.run(() => runImport(rows), { success: (r) => r.message });
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
        <h1>Import Filters</h1>
        <div className="card-actions">
          <Link className="btn btn-link" to="/companyFilters">
            Broker Filtering
          </Link>
        </div>
      </div>
      <section className="card">
        <p>
          A CSV file whose first line names the columns: <code>name</code>, <code>type</code> (one of your filter types), <code>comment</code>,{' '}
          <code>contacts</code> (separated by <code>;</code>), <code>mcNumber</code>, <code>dotNumber</code>. The export writes the same columns. Imported
          filters are verified, for your whole team, on all MCs. Brokers you already have (same name in any spelling, other name or MC number) are left as they
          are.
        </p>
        <div className="field">
          <label htmlFor="import-file">CSV file</label>
          <input id="import-file" type="file" accept=".csv,text/csv" onChange={pick} />
        </div>
        <ErrorText>{problem}</ErrorText>
      </section>
      {preview && (
        <section className="card" data-testid="import-preview">
          <div className="import-summary">
            <strong>{fileName}</strong>: {preview.create} to create, {preview.match} matching existing filters, {preview.refuse} refused.
          </div>
          <div className="form-row">
            <select aria-label="Show rows" value={show} onChange={(e) => setShow(e.target.value as typeof show)}>
              <option value="all">All rows ({preview.rows.length})</option>
              <option value="create">To create ({preview.create})</option>
              <option value="match">Matching existing ({preview.match})</option>
              <option value="refuse">Refused ({preview.refuse})</option>
            </select>
            <Button onClick={confirm} disabled={req.loading || preview.create === 0}>
              Import {preview.create} {preview.create === 1 ? 'filter' : 'filters'}
            </Button>
          </div>
          <div className="table-wrap import-table">
            <table className="table cards-narrow" ref={labelColumns}>
              <thead>
                <tr>
                  <th>Row</th>
                  <th>Name</th>
                  <th>Outcome</th>
                  <th>Detail</th>
                </tr>
              </thead>
              <tbody>
                {shown.slice(0, 1000).map((r) => (
                  <tr key={r.row}>
                    <td>{r.row}</td>
                    <td>{r.name || <span className="muted">(empty)</span>}</td>
                    <td>
                      <span className={`label-pill ${OUTCOME_PILL[r.outcome]}`}>{OUTCOME_LABEL[r.outcome]}</span>
                    </td>
                    <td>{r.detail}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {shown.length > 1000 && <p className="muted">Showing the first 1,000 of {shown.length} rows.</p>}
          </div>
        </section>
      )}
    </div>
  );
}
