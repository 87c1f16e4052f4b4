import { type FormEvent, type KeyboardEvent, useId, useMemo, useState } from 'react';
import { cleanContacts, filterSaveError, NO_TYPE } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import type { FilterDto, FilterTypeDto, TeamUserDto } from './api';

export type ModalMode = 'create' | 'update' | 'view';
type Audience = 'onlyMe' | 'teamWithMe' | 'teamWithoutMe';

/** What the modal starts from: a filter to update or view, or a draft for a new one. */
export interface FilterDraft {
  filter?: FilterDto;
  name?: string;
  contacts?: string[];
}

export interface FilterPayload {
  updateFilterId: string | null;
  name: string;
  type: string;
  comment: string;
  onlyCreator: boolean;
  allMC: boolean;
  mcList: string[];
  usersList: string[];
  onlyOnContacts: boolean;
  contacts: string[];
  newUsers: boolean;
  isVisible: boolean;
}

const TITLES: Record<ModalMode, string> = { create: 'Create Filter', update: 'Update Filter', view: 'View Filter' };

/**
 * The create / update / view-only filter modal (spec: Broker Filtering). "Me" in the users
 * options is the filter's creator. A manager saving an unverified filter verifies it.
 */
export function FilterModal(props: {
  mode: ModalMode;
  draft: FilterDraft;
  me: { id: string; isLead: boolean };
  types: FilterTypeDto[];
  mcs: { _id: string; name: string }[];
  mcName: (id: string) => string;
  teamUsers: TeamUserDto[];
  saving: boolean;
  onClose: () => void;
  onSave: (payload: FilterPayload) => void;
}) {
  const { mode, draft, me } = props;
  const filter = draft.filter;
  const readOnly = mode === 'view';
  const creatorId = filter?.creator._id ?? me.id;
  const others = props.teamUsers.filter((u) => u._id !== creatorId);
  const [name, setName] = useState(filter?.name ?? draft.name ?? '');
  const [type, setType] = useState(filter?.type ?? NO_TYPE);
  const [comment, setComment] = useState(filter?.comment ?? '');
  const [audience, setAudience] = useState<Audience>(() => {
    if (!filter) return me.isLead ? 'teamWithMe' : 'onlyMe';
    if (filter.onlyCreator) return 'onlyMe';
    return filter.usersList.includes(creatorId) ? 'teamWithMe' : 'teamWithoutMe';
  });
  const [picked, setPicked] = useState<Set<string>>(
    () => new Set(filter ? filter.usersList.filter((id) => id !== creatorId) : props.teamUsers.filter((u) => u._id !== me.id).map((u) => u._id)),
  );
  const [newUsers, setNewUsers] = useState(filter?.newUsers ?? (!filter && me.isLead));
  const [allMC, setAllMC] = useState(filter?.allMC ?? false);
  const [mcList, setMcList] = useState<string[]>(filter?.mcList ?? (props.mcs.length === 1 ? [props.mcs[0]!._id] : []));
  const [contacts, setContacts] = useState<string[]>(filter?.contacts ?? draft.contacts ?? []);
  const [pending, setPending] = useState('');
  const [onlyOnContacts, setOnlyOnContacts] = useState(filter?.onlyOnContacts ?? false);
  const [isVisible, setIsVisible] = useState(filter?.isVisible ?? true);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { type: useId(), comment: useId(), contact: useId() };

  // the filter's MCs stay listed (by name) even when the caller cannot pick them
  const mcOptions = useMemo(() => {
    const list = [...props.mcs];
    for (const id of filter?.mcList ?? []) if (!list.some((m) => m._id === id)) list.push({ _id: id, name: props.mcName(id) });
    return list;
  }, [props.mcs, filter, props.mcName]);
  const pickable = new Set(props.mcs.map((m) => m._id));
  const hasContacts = contacts.length > 0 || pending.trim() !== '';

  const addContact = () => {
    const next = cleanContacts([...contacts, pending]);
    setContacts(next);
    setPending('');
  };
  const onContactKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      addContact();
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (readOnly) return;
    // a contact still in the input is added on save (spec: Filter save)
    const allContacts = cleanContacts([...contacts, pending]);
    const mcs = allMC ? [] : mcList.filter((id) => pickable.has(id));
    const error = filterSaveError({ name, type, allMC, mcList: mcs });
    setProblem(error);
    if (error) return;
    setContacts(allContacts);
    setPending('');
    const team = audience !== 'onlyMe';
    props.onSave({
      updateFilterId: filter?._id ?? null,
      name: name.trim(),
      type,
      comment,
      onlyCreator: !team,
      allMC,
      mcList: mcs,
      usersList: team ? [...(audience === 'teamWithMe' ? [creatorId] : []), ...others.filter((u) => picked.has(u._id)).map((u) => u._id)] : [creatorId],
      onlyOnContacts: allContacts.length > 0 && onlyOnContacts,
      contacts: allContacts,
      newUsers: team && newUsers,
      isVisible,
    });
  };

  const saveLabel = mode === 'create' ? 'Create Filter' : me.isLead && filter && !filter.isVerified ? 'Verify and Update Info' : 'Update Info';
  const toggleIn = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));

  return (
    <Modal
      open
      wide
      onOpenChange={(open) => !open && props.onClose()}
      title={TITLES[mode]}
      footer={
        <>
          <a className="filter-help-link" href="/help/filters" target="_blank" rel="noopener">
            Help: how filters work
          </a>
          {!readOnly && (
            <Button type="submit" form="filter-form" disabled={props.saving}>
              {saveLabel}
            </Button>
          )}
          <Button variant="ghost" onClick={props.onClose}>
            {readOnly ? 'Close' : 'Cancel'}
          </Button>
        </>
      }
    >
      <form id="filter-form" className="filter-form" onSubmit={submit} noValidate>
        {filter && !filter.isVerified && (
          <p className="notice filter-unverified" data-testid="unverified-note">
            <span className="label-pill pill-warn">Unverified</span> Added by Agent
            {me.isLead ? ': saving verifies it for the team.' : ': your manager verifies it.'}
          </p>
        )}
        <fieldset disabled={readOnly} className="filter-fields">
          <div className="filter-grid">
            <Field label="Company name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
            <div className="field">
              <label htmlFor={ids.type}>Type</label>
              <select id={ids.type} value={type} onChange={(e) => setType(e.target.value)}>
                <option value={NO_TYPE}>Select type</option>
                {props.types.map((t) => (
                  <option key={t._id} value={t._id}>
                    {t.typeName}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="field">
            <label htmlFor={ids.comment}>Comment</label>
            <textarea id={ids.comment} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
          </div>

          <fieldset className="group-box">
            <legend>Users{filter && filter.creator._id !== me.id ? ` (Me = ${filter.creator.name}, the creator)` : ''}</legend>
            <div className="checks" role="radiogroup" aria-label="Users">
              {(
                [
                  ['onlyMe', 'Only Me'],
                  ['teamWithMe', 'Team with Me'],
                  ['teamWithoutMe', 'Team without Me'],
                ] as const
              ).map(([value, label]) => (
                <label key={value}>
                  <input type="radio" name="audience" value={value} checked={audience === value} onChange={() => setAudience(value)} />
                  {label}
                </label>
              ))}
            </div>
            {audience !== 'onlyMe' && (
              <div className="filter-sublist">
                {others.length === 0 && <span className="muted">No other users in the team yet.</span>}
                <div className="checks">
                  {others.map((u) => (
                    <label key={u._id}>
                      <input
                        type="checkbox"
                        checked={picked.has(u._id)}
                        onChange={(e) =>
                          setPicked((s) => {
                            const next = new Set(s);
                            if (e.target.checked) next.add(u._id);
                            else next.delete(u._id);
                            return next;
                          })
                        }
                      />
                      {u.name}
                      {u.userType === 'manager' ? ' (manager)' : ''}
                    </label>
                  ))}
                </div>
                <label className="check-line">
                  <input type="checkbox" checked={newUsers} onChange={(e) => setNewUsers(e.target.checked)} />
                  Also for users added later
                </label>
              </div>
            )}
          </fieldset>

          <fieldset className="group-box">
            <legend>MC</legend>
            <label className="check-line">
              <input type="checkbox" checked={allMC} onChange={(e) => setAllMC(e.target.checked)} />
              All MC
            </label>
            <div className="checks" role="group" aria-label="MC list">
              {mcOptions.map((mc) => (
                <label key={mc._id}>
                  <input
                    type="checkbox"
                    disabled={allMC || !pickable.has(mc._id)}
                    checked={!allMC && mcList.includes(mc._id)}
                    onChange={(e) => setMcList((l) => toggleIn(l, mc._id, e.target.checked))}
                  />
                  {mc.name}
                </label>
              ))}
            </div>
          </fieldset>

          <fieldset className="group-box">
            <legend>Contacts</legend>
            {contacts.length > 0 && (
              <ul className="contact-chips" aria-label="Contacts">
                {contacts.map((c) => (
                  <li key={c} className="contact-chip">
                    {c}
                    {!readOnly && (
                      <button type="button" aria-label={`Remove ${c}`} onClick={() => setContacts((l) => l.filter((x) => x !== c))}>
                        ×
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {!readOnly && (
              <div className="form-row">
                <div className="field grow">
                  <label htmlFor={ids.contact}>Phone or e-mail</label>
                  <input id={ids.contact} value={pending} onChange={(e) => setPending(e.target.value)} onKeyDown={onContactKey} placeholder="+1 555 123 4567" />
                </div>
                <Button variant="secondary" onClick={addContact} disabled={!pending.trim()}>
                  Add contact
                </Button>
              </div>
            )}
            {readOnly && contacts.length === 0 && <span className="muted">All contacts</span>}
            <label className="check-line">
              <input type="checkbox" disabled={!hasContacts} checked={hasContacts && onlyOnContacts} onChange={(e) => setOnlyOnContacts(e.target.checked)} />
              Only on these contacts
            </label>
          </fieldset>

          <label className="check-line">
            <input type="checkbox" checked={isVisible} onChange={(e) => setIsVisible(e.target.checked)} />
            Active
          </label>
        </fieldset>
        <ErrorText>{problem}</ErrorText>
      </form>
    </Modal>
  );
}
