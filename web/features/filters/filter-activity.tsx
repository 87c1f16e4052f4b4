import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { RequestFailed } from '../../components/ui/request-state';
import { Spinner } from '../../components/ui/spinner';
import { Tabs } from '../../components/ui/tabs';
import { shortDateTime } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { addNote, type FilterEventDto, useFilterHistory, useFilterNotes } from './api';
import { filterMessage } from './texts';

const FIELD_LABELS: Record<string, string> = {
  name: 'filterActivity.fieldName',
  type: 'filterActivity.fieldType',
  comment: 'filterActivity.fieldComment',
  mcNumber: 'filterActivity.fieldMcNumber',
  dotNumber: 'filterActivity.fieldDotNumber',
  isVisible: 'filterActivity.fieldActive',
  onlyCreator: 'filterActivity.fieldOnlyMe',
  allMC: 'filterActivity.fieldAllMc',
  onlyOnContacts: 'filterActivity.fieldOnlyOnContacts',
  newUsers: 'filterActivity.fieldNewUsers',
  mcList: 'filterActivity.fieldMcList',
  usersList: 'filterActivity.fieldUsers',
  contacts: 'filterActivity.fieldContacts',
  aliases: 'filterActivity.fieldAliases',
};

/** The events told in one word, as the API names them. */
const KIND_LABELS: Record<string, string> = {
  created: 'filterActivity.kindCreated',
  verified: 'filterActivity.kindVerified',
  disabled: 'filterActivity.kindDisabled',
  enabled: 'filterActivity.kindEnabled',
  deleted: 'filterActivity.kindDeleted',
};

/** One audit row in words: "edited name: Acme → Acme Freight". */
function eventText(e: FilterEventDto, t: TFunction): string {
  const c = e.changes as Record<string, unknown>;
  const show = (v: unknown) => (v === null || v === '' ? t('filterActivity.empty') : Array.isArray(v) ? v.join(', ') || t('filterActivity.none') : String(v));
  const label = (field: string) => (FIELD_LABELS[field] ? t(FIELD_LABELS[field]) : field);
  if (e.kind === 'edited') {
    const fields = Object.entries(c).map(([field, pair]) => {
      const [before, after] = Array.isArray(pair) ? pair : [undefined, pair];
      // lists of ids (MCs, users) read better as "changed"
      if (field === 'mcList' || field === 'usersList' || field === 'type') return t('filterActivity.fieldChanged', { field: label(field) });
      return t('filterActivity.fieldChange', { field: label(field), before: show(before), after: show(after) });
    });
    return fields.length ? t('filterActivity.edited', { fields: fields.join('; ') }) : t('filterActivity.savedUnchanged');
  }
  if (e.kind === 'rejected') return t('filterActivity.rejected', { reason: show(c.reason) });
  if (e.kind === 'noted') return t('filterActivity.noted');
  if (e.kind === 'imported') return t('filterActivity.imported');
  if (e.kind === 'resubmitted') return t('filterActivity.resubmitted');
  if (e.kind === 'vetting' && Array.isArray(c.status)) return t('filterActivity.statusChanged', { before: show(c.status[0]), after: show(c.status[1]) });
  return KIND_LABELS[e.kind] ? t(KIND_LABELS[e.kind]) : e.kind;
}

/** The filter modal's Notes thread and History (the audit trail), for anyone who sees the filter. */
export function FilterActivity({ filterId }: { filterId: string }) {
  const { t } = useTranslation();
  const notes = useFilterNotes(filterId);
  const history = useFilterHistory(filterId);
  const [text, setText] = useState('');
  const req = useRequest();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    const res = await req.run(() => addNote(filterId, text), { success: () => filterMessage('noteAdded') });
    if (res) {
      setText('');
      await Promise.all([notes.mutate(), history.mutate()]);
    }
  };

  const notesTab = (
    <div className="filter-notes" data-testid="filter-notes">
      {notes.isLoading && <Spinner />}
      {notes.error != null && !notes.data && <RequestFailed what={t('filterActivity.notesWhat')} error={notes.error} onRetry={() => void notes.mutate()} />}
      {notes.data?.length === 0 && <p className="muted">{t('filterActivity.noNotes')}</p>}
      <ul className="activity-list">
        {notes.data?.map((n) => (
          <li key={n._id}>
            <div className="activity-meta">
              <strong>{n.author.name}</strong> · {shortDateTime(n.at)}
            </div>
            <div className="note-text">{n.text}</div>
          </li>
        ))}
      </ul>
      <form className="form-row" onSubmit={submit}>
        <div className="field grow">
          <label htmlFor={`note-${filterId}`}>{t('filterActivity.addNoteLabel')}</label>
          <textarea id={`note-${filterId}`} rows={2} maxLength={4000} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <Button type="submit" variant="secondary" disabled={req.loading || !text.trim()} title={text.trim() ? undefined : filterMessage('noteEmpty')}>
          {t('filterActivity.addNote')}
        </Button>
      </form>
    </div>
  );

  const historyTab = (
    <div data-testid="filter-history">
      {history.isLoading && <Spinner />}
      {history.error != null && !history.data && (
        <RequestFailed what={t('filterActivity.historyWhat')} error={history.error} onRetry={() => void history.mutate()} />
      )}
      <ul className="activity-list">
        {history.data?.map((e) => (
          <li key={e._id}>
            <div className="activity-meta">
              <strong>{e.actor.name}</strong> · {shortDateTime(e.at)}
            </div>
            <div>{eventText(e, t)}</div>
          </li>
        ))}
      </ul>
    </div>
  );

  return (
    <section className="filter-activity" aria-label={t('filterActivity.label')}>
      <Tabs
        tabs={[
          { value: 'notes', label: notes.data ? t('filterActivity.notesCount', { count: notes.data.length }) : t('filterActivity.notes'), content: notesTab },
          { value: 'history', label: t('filterActivity.history'), content: historyTab },
        ]}
      />
    </section>
  );
}
