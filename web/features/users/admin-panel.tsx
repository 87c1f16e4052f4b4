import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { DateField } from '../../components/ui/date-input';
import { Card } from '../../components/ui/section';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-users.json';
import { useRequest } from '../../lib/use-request';
import { setTrial, setTrialEndDate, type UserDto, type UserType, updateParent, updateType, useChildUsers, useDirectors, useManagers } from './api';
import { roleText } from './texts';
import { UserTypeSelect } from './user-type-select';

addEnglish(english);

/** Runs one admin change; the panel says `done` (the server's message, in the user's language) and reloads the user. */
type Act = (change: () => Promise<{ message: string }>, done: string) => Promise<void>;

/** Admin only: trial On/Off with Start Trial / Stop Trial and its end date, type, parent and children. */
export function AdminPanel({ user, onSaved }: { user: UserDto; onSaved: () => void }) {
  const { t } = useTranslation();
  const children = useChildUsers(user._id);
  const { loading, run } = useRequest();
  const act: Act = async (change, done) => {
    const res = await run(change, { success: () => done });
    if (res) {
      onSaved();
      void children.mutate();
    }
  };
  return (
    <div className="grid-2">
      <TrialCard user={user} busy={loading} act={act} />
      <Card title={t('adminPanel.roleAndTeam')}>
        <div className="form">
          <RoleAndParent user={user} busy={loading} act={act} />
          <Children users={children.data} />
        </div>
      </Card>
    </div>
  );
}

const toDateInput = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

function TrialCard({ user, busy, act }: { user: UserDto; busy: boolean; act: Act }) {
  const { t } = useTranslation();
  const [endDate, setEndDate] = useState(toDateInput(user.subscriptionEndDate));
  // a started or stopped trial moves the end date: show the new one
  useEffect(() => setEndDate(toDateInput(user.subscriptionEndDate)), [user.subscriptionEndDate]);
  return (
    <Card title={t('adminPanel.trial')}>
      <p data-testid="trial-state">
        {t('adminPanel.trialState')}{' '}
        <span className={`label-pill ${user.isTrialPeriod ? 'pill-ok' : 'pill-off'}`}>{user.isTrialPeriod ? t('adminPanel.on') : t('adminPanel.off')}</span>
      </p>
      <div className="form">
        {user.isTrialPeriod ? (
          <Button variant="danger" disabled={busy} onClick={() => act(() => setTrial(user._id, false), t('adminPanel.trialStopped'))}>
            {t('adminPanel.stopTrial')}
          </Button>
        ) : (
          <Button disabled={busy} onClick={() => act(() => setTrial(user._id, true), t('adminPanel.trialStarted'))}>
            {t('adminPanel.startTrial')}
          </Button>
        )}
        <div className="form-row">
          <DateField label={t('adminPanel.endDate')} value={endDate} onChange={setEndDate} />
          <Button variant="secondary" disabled={busy || !endDate} onClick={() => act(() => setTrialEndDate(user._id, endDate), t('adminPanel.endDateSaved'))}>
            {t('adminPanel.saveDate')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

/** Whom a user of this type may have as its parent: agents a manager, managers a director. */
function useParentChoices(type: UserType) {
  const managers = useManagers(type === 'agent');
  const directors = useDirectors(type === 'manager');
  return type === 'agent' ? (managers.data ?? []) : type === 'manager' ? (directors.data ?? []) : null;
}

function RoleAndParent({ user, busy, act }: { user: UserDto; busy: boolean; act: Act }) {
  const { t } = useTranslation();
  const [type, setType] = useState(user.userType);
  const [parent, setParent] = useState(user.parent?._id ?? '');
  useEffect(() => {
    setType(user.userType);
    setParent(user.parent?._id ?? '');
  }, [user.userType, user.parent?._id]);
  const parents = useParentChoices(type);
  const typeChanged = type !== user.userType;
  const chooseType = (next: UserType) => {
    setType(next);
    setParent(next === user.userType ? (user.parent?._id ?? '') : '');
  };
  const saveType = () =>
    act(() => updateType(user._id, parents ? { userNewType: type, newParent: parent || null } : { userNewType: type }), t('adminPanel.typeSaved'));
  return (
    <>
      <UserTypeSelect id="pf-type" value={type} onChange={chooseType} />
      {parents && (
        <div className="field">
          <label htmlFor="pf-parent">{type === 'agent' ? t('createUser.parentManager') : t('adminPanel.parentDirector')}</label>
          <select id="pf-parent" value={parent} onChange={(e) => setParent(e.target.value)}>
            <option value="">{type === 'agent' ? t('createUser.selectManager') : t('createUser.noDirector')}</option>
            {parents
              .filter((p) => p._id !== user._id)
              .map((p) => (
                <option key={p._id} value={p._id}>
                  {p.name} ({p.email})
                </option>
              ))}
          </select>
        </div>
      )}
      <div className="form-row">
        {typeChanged ? (
          <Button variant="secondary" disabled={busy} onClick={saveType}>
            {t('adminPanel.changeType')}
          </Button>
        ) : (
          parents && (
            <Button
              variant="secondary"
              disabled={busy || parent === (user.parent?._id ?? '')}
              onClick={() => act(() => updateParent(user._id, parent || null), t('adminPanel.parentSaved'))}
            >
              {t('adminPanel.changeParent')}
            </Button>
          )
        )}
      </div>
    </>
  );
}

function Children({ users }: { users: UserDto[] | undefined }) {
  const { t } = useTranslation();
  return (
    <div>
      <span className="stat-label">{t('adminPanel.children')}</span>
      {users?.length ? (
        <ul className="inline-list" data-testid="children">
          {users.map((c) => (
            <li key={c._id}>
              <Link to={`/profile/${c._id}`}>{c.name}</Link>{' '}
              <span className="muted">
                ({roleText(t, c.userType)}, {c.email})
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('adminPanel.noChildren')}</p>
      )}
    </div>
  );
}
