import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { FILTER_MESSAGES, HEX_COLOR } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Loaded } from '../../components/ui/request-state';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';
import { type FilterTypeDto, saveFilterTypes, useFilterTypes } from './api';
import { TypeLabel } from './filters-table';
import './filters.css';
import { useColumnLabels } from '../../lib/use-column-labels';

/** My Filters (/filters): the team's filter types; names editable except for agents, colours. */
export default function MyFilters() {
  const labelColumns = useColumnLabels<HTMLTableElement>();
  const session = useSession();
  const canEdit = session?.userType === 'manager' || session?.userType === 'admin';
  const typesRead = useFilterTypes();
  const { data, mutate } = typesRead;
  const [rows, setRows] = useState<FilterTypeDto[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const { loading, run } = useRequest();
  useEffect(() => {
    if (data) setRows(data);
  }, [data]);

  const change = (id: string, patch: Partial<FilterTypeDto>) => setRows((list) => list.map((t) => (t._id === id ? { ...t, ...patch } : t)));
  const dirty =
    !!data &&
    rows.some((r) => {
      const was = data.find((d) => d._id === r._id);
      return !was || was.typeName !== r.typeName || was.color.toLowerCase() !== r.color.toLowerCase();
    });

  /** Save: true when saved, false when refused (the unsaved-changes dialog keeps the person here then). */
  const save = async (): Promise<boolean> => {
    const empty = rows.find((r) => !r.typeName.trim());
    const error = empty ? FILTER_MESSAGES.typeNameEmpty : rows.some((r) => !HEX_COLOR.test(r.color)) ? FILTER_MESSAGES.badColor : null;
    setProblem(error);
    if (error) return false;
    const res = await run(() => saveFilterTypes(rows.map(({ _id, typeName, color }) => ({ _id, typeName, color }))), { success: (r) => r.message });
    if (res) await mutate(res.filterTypes, { revalidate: false });
    return !!res;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save();
  };
  const unsaved = useUnsavedChanges(canEdit && dirty, save);

  return (
    <div className="page narrow-wide">
      <div className="page-header">
        <h1>My Filters</h1>
        <Link className="btn btn-link" to="/help/filters#types" target="_blank" rel="noopener">
          Help
        </Link>
      </div>
      <Card title="Filter types" actions={!canEdit && <span className="muted">Your manager names the types; you see them here.</span>}>
        <Loaded what="the filter types" state={typesRead}>
          {() => (
            <form onSubmit={submit} noValidate>
              <table className="types-table cards-narrow" ref={labelColumns} data-testid="types-table">
                <thead>
                  <tr>
                    <th>Label</th>
                    <th>Type name</th>
                    <th>Colour</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((t, i) => (
                    <tr key={t._id}>
                      <td>
                        <TypeLabel type={t} />
                      </td>
                      <td>
                        {canEdit ? (
                          <input
                            aria-label={`Type name ${i + 1}`}
                            value={t.typeName}
                            maxLength={60}
                            onChange={(e) => change(t._id, { typeName: e.target.value })}
                          />
                        ) : (
                          <span data-testid="type-name">{t.typeName}</span>
                        )}
                      </td>
                      <td>
                        {canEdit ? (
                          <span className="color-cell">
                            <input
                              type="color"
                              aria-label={`Colour of ${t.typeName || `type ${i + 1}`}`}
                              value={t.color}
                              onChange={(e) => change(t._id, { color: e.target.value })}
                            />
                            <code>{t.color}</code>
                          </span>
                        ) : (
                          <span className="color-cell">
                            <span className="swatch" style={{ background: t.color }} aria-hidden="true" />
                            <code>{t.color}</code>
                          </span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ErrorText>{problem}</ErrorText>
              {canEdit && (
                <div className="search-actions">
                  <Button variant="ghost" disabled={!dirty || loading} onClick={() => data && setRows(data)}>
                    Undo changes
                  </Button>
                  <Button type="submit" disabled={!dirty || loading}>
                    Save
                  </Button>
                </div>
              )}
            </form>
          )}
        </Loaded>
      </Card>
      {unsaved.dialog}
    </div>
  );
}
