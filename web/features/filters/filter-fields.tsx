import { type KeyboardEvent, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { contactText } from '../../lib/format';
import { toggled } from '../../lib/sets';
import type { FilterTypeDto } from './api';
import type { useFilterForm } from './use-filter-form';

type Form = ReturnType<typeof useFilterForm>;

/** The filter type select; `none` is its first option (the search's All, the modal's Select type). */
export function TypeSelect(props: {
  label: string;
  value: string;
  onChange: (type: string) => void;
  types: FilterTypeDto[];
  none: { value: string; label: string };
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value={props.none.value}>{props.none.label}</option>
        {props.types.map((t) => (
          <option key={t._id} value={t._id}>
            {t.typeName}
          </option>
        ))}
      </select>
    </div>
  );
}

const AUDIENCES = [
  ['onlyMe', 'filterModal.onlyMe'],
  ['teamWithMe', 'filterModal.teamWithMe'],
  ['teamWithoutMe', 'filterModal.teamWithoutMe'],
] as const;

/** Users: Only Me, Team with Me or Team without Me; for a team, which members and users added later. */
export function AudienceFields({ users, legend }: { users: Form['users']; legend: string }) {
  const { t } = useTranslation();
  const togglePicked = (id: string, on: boolean) => users.setPicked((s) => toggled(s, id, on));
  return (
    <fieldset className="group-box">
      <legend>{legend}</legend>
      <div className="checks" role="radiogroup" aria-label={t('filterModal.users')}>
        {AUDIENCES.map(([value, label]) => (
          <label key={value}>
            <input type="radio" name="audience" value={value} checked={users.audience === value} onChange={() => users.setAudience(value)} />
            {t(label)}
          </label>
        ))}
      </div>
      {users.audience !== 'onlyMe' && (
        <div className="filter-sublist">
          {users.others.length === 0 && <span className="muted">{t('filterModal.noOtherUsers')}</span>}
          <div className="checks">
            {users.others.map((u) => (
              <label key={u._id}>
                <input type="checkbox" checked={users.picked.has(u._id)} onChange={(e) => togglePicked(u._id, e.target.checked)} />
                {u.name}
                {u.userType === 'manager' ? t('filterModal.manager') : ''}
              </label>
            ))}
          </div>
          <label className="check-line">
            <input type="checkbox" checked={users.newUsers} onChange={(e) => users.setNewUsers(e.target.checked)} />
            {t('filterModal.laterUsers')}
          </label>
        </div>
      )}
    </fieldset>
  );
}

/** MC: All MC, or the MCs the caller may pick (the filter's others are listed, disabled). */
export function McFields({ mc }: { mc: Form['mc'] }) {
  const { t } = useTranslation();
  const toggle = (id: string, on: boolean) => mc.setMcList((l) => (on ? [...l, id] : l.filter((x) => x !== id)));
  return (
    <fieldset className="group-box">
      <legend>{t('filterModal.mc')}</legend>
      <label className="check-line">
        <input type="checkbox" checked={mc.allMC} onChange={(e) => mc.setAllMC(e.target.checked)} />
        {t('filterModal.allMc')}
      </label>
      <div className="checks" role="group" aria-label={t('filterModal.mcList')}>
        {mc.options.map((m) => (
          <label key={m._id}>
            <input
              type="checkbox"
              disabled={mc.allMC || !mc.pickable.has(m._id)}
              checked={!mc.allMC && mc.mcList.includes(m._id)}
              onChange={(e) => toggle(m._id, e.target.checked)}
            />
            {m.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Contacts: the chips, a phone or e-mail input (Enter adds), and Only on these contacts. */
export function ContactFields({ contacts, readOnly }: { contacts: Form['contacts']; readOnly: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const hasContacts = contacts.list.length > 0 || contacts.pending.trim() !== '';
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      contacts.add();
    }
  };
  return (
    <fieldset className="group-box">
      <legend>{t('filterModal.contacts')}</legend>
      {contacts.list.length > 0 && (
        <ul className="contact-chips" aria-label={t('filterModal.contacts')}>
          {contacts.list.map((c) => (
            <li key={c} className="contact-chip">
              {contactText(c)}
              {!readOnly && (
                <button
                  type="button"
                  aria-label={t('filterModal.removeContact', { contact: contactText(c) })}
                  onClick={() => contacts.setList((l) => l.filter((x) => x !== c))}
                >
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
            <label htmlFor={id}>{t('filterModal.contactInput')}</label>
            <input id={id} value={contacts.pending} onChange={(e) => contacts.setPending(e.target.value)} onKeyDown={onKey} placeholder="+1 555 123 4567" />
          </div>
          <Button variant="secondary" onClick={contacts.add} disabled={!contacts.pending.trim()}>
            {t('filterModal.addContact')}
          </Button>
        </div>
      )}
      {readOnly && contacts.list.length === 0 && <span className="muted">{t('filterModal.allContacts')}</span>}
      <label className="check-line">
        <input
          type="checkbox"
          disabled={!hasContacts}
          checked={hasContacts && contacts.onlyOnContacts}
          onChange={(e) => contacts.setOnlyOnContacts(e.target.checked)}
        />
        {t('filterModal.onlyOnContacts')}
      </label>
    </fieldset>
  );
}
