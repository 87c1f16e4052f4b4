import { type FormEvent, useState } from 'react';
import { FILTER_MESSAGES } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { RequestFailed } from '../../components/ui/request-state';
import { Tabs } from '../../components/ui/tabs';
import { shortDateTime } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { addNote, type FilterEventDto, useFilterHistory, useFilterNotes } from './api';

const FIELD_LABELS: Record<string, string> = {
  name: 'name',
  type: 'type',
  comment: 'comment',
  mcNumber: 'MC number',
  dotNumber: 'DOT number',
  isVisible: 'active',
  onlyCreator: 'only me',
  allMC: 'all MC',
  onlyOnContacts: 'only on contacts',
  newUsers: 'users added later',
  mcList: 'MCs',
  usersList: 'users',
  contacts: 'contacts',
  aliases: 'other names',
};

const show = (v: unknown) => (v === null || v === '' ? '(empty)' : Array.isArray(v) ? v.join(', ') || '(none)' : String(v));

/** One audit row in words: "edited name: Acme → Acme Freight". */
function eventText(e: FilterEventDto): string {
  const c = e.changes as Record<string, unknown>;
  if (e.kind === 'edited') {
    const fields = Object.entries(c).map(([field, pair]) => {
      const [before, after] = Array.isArray(pair) ? pair : [undefined, pair];
      // lists of ids (MCs, users) read better as "changed"
      if (field === 'mcList' || field === 'usersList' || field === 'type') return `${FIELD_LABELS[field] ?? field} changed`;
      return `${FIELD_LABELS[field] ?? field}: ${show(before)} → ${show(after)}`;
    });
    return fields.length ? `edited ${fields.join('; ')}` : 'saved without changes';
  }
  if (e.kind === 'rejected') return `rejected: ${show(c.reason)}`;
  if (e.kind === 'noted') return 'added a note';
  if (e.kind === 'imported') return 'imported it';
  return e.kind;
}

/** The filter modal's Notes thread and History (the audit trail), for anyone who sees the filter. */
export function FilterActivity({ filterId }: { filterId: string }) {
  const notes = useFilterNotes(filterId);
  const history = useFilterHistory(filterId);
  const [text, setText] = useState('');
  const req = useRequest();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    const res = await req.run(() => addNote(filterId, text), { success: (r) => r.message });
    if (res) {
      setText('');
      await Promise.all([notes.mutate(), history.mutate()]);
    }
  };

  const notesTab = (
    <div className="filter-notes" data-testid="filter-notes">
      {notes.isLoading && <Spinner />}
      {notes.error != null && !notes.data && <RequestFailed what="the notes" error={notes.error} onRetry={() => void notes.mutate()} />}
      {notes.data?.length === 0 && <p className="muted">No notes yet.</p>}
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
          <label htmlFor={`note-${filterId}`}>Add a note</label>
          <textarea id={`note-${filterId}`} rows={2} maxLength={4000} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <Button type="submit" variant="secondary" disabled={req.loading || !text.trim()} title={text.trim() ? undefined : FILTER_MESSAGES.noteEmpty}>
          Add note
        </Button>
      </form>
    </div>
  );

  const historyTab = (
    <div data-testid="filter-history">
      {history.isLoading && <Spinner />}
      {history.error != null && !history.data && <RequestFailed what="the history" error={history.error} onRetry={() => void history.mutate()} />}
      <ul className="activity-list">
        {history.data?.map((e) => (
          <li key={e._id}>
            <div className="activity-meta">
              <strong>{e.actor.name}</strong> · {shortDateTime(e.at)}
            </div>
            <div>{eventText(e)}</div>
          </li>
        ))}
      </ul>
    </div>
  );

  return (
    <section className="filter-activity" aria-label="Notes and history">
      <Tabs
        tabs={[
          { value: 'notes', label: `Notes${notes.data ? ` (${notes.data.length})` : ''}`, content: notesTab },
          { value: 'history', label: 'History', content: historyTab },
        ]}
      />
    </section>
  );
}
