import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FILTER_MESSAGES, HEX_COLOR } from '../../../worker/filters/filters.schema';
import { problem as problemOf } from '../../../worker/lib/messages';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Loaded } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { messageText } from '../../i18n/errors';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { type FilterTypeDto, saveFilterTypes, useFilterTypes } from './api';
import { TypeLabel } from './filters-table';
import { filterMessage } from './texts';
import './filters.css';
import { useColumnLabels } from '../../lib/use-column-labels';

/** My Filters (/filters): the team's filter types; names editable except for agents, colours. */
export default function MyFilters() {
  const { t } = useTranslation();
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
    const error = empty ? problemOf(FILTER_MESSAGES.typeNameEmpty) : rows.some((r) => !HEX_COLOR.test(r.color)) ? problemOf(FILTER_MESSAGES.badColor) : null;
    setProblem(error);
    if (error) return false;
    const res = await run(() => saveFilterTypes(rows.map(({ _id, typeName, color }) => ({ _id, typeName, color }))), {
      success: () => filterMessage('typesSaved'),
    });
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
        <h1>{t('filterTypes.title')}</h1>
        <Link className="btn btn-link" to="/help/filters#types" target="_blank" rel="noopener">
          {t('filterTypes.help')}
        </Link>
      </div>
      <Card title={t('filterTypes.card')} actions={!canEdit && <span className="muted">{t('filterTypes.agentNote')}</span>}>
        <Loaded what={t('filterTypes.what')} state={typesRead}>
          {() => (
            <form onSubmit={submit} noValidate>
              <table className="types-table cards-narrow" ref={labelColumns} data-testid="types-table">
                <thead>
                  <tr>
                    <th>{t('filterTypes.colLabel')}</th>
                    <th>{t('filterTypes.colName')}</th>
                    <th>{t('filterTypes.colColour')}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((type, i) => (
                    <tr key={type._id}>
                      <td>
                        <TypeLabel type={type} />
                      </td>
                      <td>
                        {canEdit ? (
                          <input
                            aria-label={t('filterTypes.nameOf', { n: i + 1 })}
                            value={type.typeName}
                            maxLength={60}
                            onChange={(e) => change(type._id, { typeName: e.target.value })}
                          />
                        ) : (
                          <span data-testid="type-name">{type.typeName}</span>
                        )}
                      </td>
                      <td>
                        {canEdit ? (
                          <span className="color-cell">
                            <input
                              type="color"
                              aria-label={type.typeName ? t('filterTypes.colourOf', { name: type.typeName }) : t('filterTypes.colourOfNth', { n: i + 1 })}
                              value={type.color}
                              onChange={(e) => change(type._id, { color: e.target.value })}
                            />
                            <code>{type.color}</code>
                          </span>
                        ) : (
                          <span className="color-cell">
                            <span className="swatch" style={{ background: type.color }} aria-hidden="true" />
                            <code>{type.color}</code>
                          </span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ErrorText>{messageText(problem)}</ErrorText>
              {canEdit && (
                <div className="search-actions">
                  <Button variant="ghost" disabled={!dirty || loading} onClick={() => data && setRows(data)}>
                    {t('filterTypes.undo')}
                  </Button>
                  <Button type="submit" disabled={!dirty || loading}>
                    {t('filterTypes.save')}
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
