import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import useSWR from 'swr';
import { USER_TYPES } from '../../../worker/db/schema/users';
import { passwordUpdateError, USER_MESSAGES, type UserDto } from '../../../worker/users/users.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { Card, CollapsibleSection } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { fetcher, put } from '../../lib/api-client';
import { updateSession, useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { shortDate, useUser } from './api';

/** /profile/ (me) and /profile/{id}: details, updates, and for the admin trial, type, parent, children. */
export default function Profile() {
  const session = useSession();
  const { id } = useParams();
  const userId = id || session?.userId;
  const { data: user, isLoading, mutate } = useUser(userId);
  const isAdmin = session?.userType === 'admin';
  if (isLoading || !user) return <div className="page">{isLoading ? <Spinner /> : <p className="muted">User not found</p>}</div>;
  const isMe = user._id === session?.userId;
  // the server's rule (users.service mayManage): the admin, the user itself, an agent's own manager
  const canManage = isAdmin || isMe || (session?.userType === 'manager' && user.userType === 'agent' && user.parent?._id === session.userId);
  return (
    <div className="page narrow-wide">
      <div className="page-header">
        <h1>{isMe ? 'My Profile' : `Profile: ${user.name}`}</h1>
      </div>
      <Card>
        <dl className="kv" data-testid="profile-details">
          <dt>Name</dt>
          <dd>{user.name}</dd>
          <dt>E-mail</dt>
          <dd>
            {user.email}{' '}
            {user.isEmailVerified ? <span className="label-pill pill-ok">verified</span> : <span className="label-pill pill-warn">not verified</span>}
          </dd>
          <dt>Next Payment Date</dt>
          <dd>{user.subscriptionEndDate ? shortDate(user.subscriptionEndDate) : 'No End Date'}</dd>
          {!isMe && (
            <>
              <dt>User type</dt>
              <dd>{user.userType}</dd>
            </>
          )}
        </dl>
        {!user.isEmailVerified && canManage && <ResendVerification userId={user._id} />}
      </Card>
      {canManage && (
        <>
          <NameSection user={user} onSaved={mutate} isMe={isMe} />
          <EmailSection user={user} onSaved={mutate} isMe={isMe} />
          <PasswordSection user={user} isMe={isMe} />
        </>
      )}
      {isAdmin && !isMe && <AdminPanel key={user._id} user={user} onSaved={mutate} />}
    </div>
  );
}

function ResendVerification({ userId }: { userId: string }) {
  const { loading, run } = useRequest();
  return (
    <div className="form-row" style={{ marginTop: '0.75rem' }}>
      <Button
        variant="secondary"
        disabled={loading}
        onClick={() => run(() => put<{ message: string }>(`/api/user/resendEmailVerification/${userId}`), { success: (r) => r.message })}
      >
        Resend email verification
      </Button>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return <CollapsibleSection title={title}>{children}</CollapsibleSection>;
}

function NameSection({ user, onSaved, isMe }: { user: UserDto; onSaved: () => void; isMe: boolean }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { loading, run } = useRequest();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem(USER_MESSAGES.nameEmpty);
    setProblem(null);
    const res = await run(() => put<{ message: string }>(`/api/user/update/name/${user._id}`, { newName: name }), { success: (r) => r.message });
    if (res) {
      setName('');
      if (isMe) updateSession({ userName: name.trim() });
      onSaved();
    }
  };
  return (
    <Section title="Update name">
      <form className="form" onSubmit={submit} noValidate>
        <Field label="New name" value={name} onChange={(e) => setName(e.target.value)} />
        <ErrorText>{problem}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            Save name
          </Button>
        </div>
      </form>
    </Section>
  );
}

function EmailSection({ user, onSaved, isMe }: { user: UserDto; onSaved: () => void; isMe: boolean }) {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { loading, run } = useRequest();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return setProblem(USER_MESSAGES.emailEmpty);
    setProblem(null);
    const res = await run(() => put<{ message: string }>(`/api/user/update/email/${user._id}`, { newEmail: email }), { success: (r) => r.message });
    if (res) {
      if (isMe) updateSession({ userEmail: email.trim().toLowerCase() });
      setEmail('');
      onSaved();
    }
  };
  return (
    <Section title="Update e-mail">
      <form className="form" onSubmit={submit} noValidate>
        <Field label="New e-mail" type="email" value={email} onChange={(e) => setEmail(e.target.value)} hint="The new address must be verified again." />
        <ErrorText>{problem}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            Save e-mail
          </Button>
        </div>
      </form>
    </Section>
  );
}

function PasswordSection({ user, isMe }: { user: UserDto; isMe: boolean }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { loading, run } = useRequest();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const error = passwordUpdateError(password, repeat);
    setProblem(error);
    if (error) return;
    const res = await run(() => put<{ message: string; accessToken?: string }>(`/api/user/update/password/${user._id}`, { newPassword: password }), {
      success: (r) => r.message,
    });
    if (res) {
      if (isMe && res.accessToken) updateSession({ token: res.accessToken });
      setPassword('');
      setRepeat('');
    }
  };
  return (
    <Section title="Update password">
      <form className="form" onSubmit={submit} noValidate>
        <Field label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <Field label="Repeat new password" type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        <ErrorText>{problem}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            Save password
          </Button>
        </div>
      </form>
    </Section>
  );
}

const toDateInput = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/** Whom a user of this type may have as its parent: agents a manager, managers a director. */
const parentListFor = (type: UserDto['userType']) =>
  type === 'agent' ? '/api/user/directorChildManagers' : type === 'manager' ? '/api/user/directorsList' : null;

/** Admin only: trial On/Off with Start Trial / Stop Trial and its end date, type, parent and children. */
function AdminPanel({ user, onSaved }: { user: UserDto; onSaved: () => void }) {
  const { loading, run } = useRequest();
  const [endDate, setEndDate] = useState(toDateInput(user.subscriptionEndDate));
  const [type, setType] = useState(user.userType);
  const [parent, setParent] = useState(user.parent?._id ?? '');
  // a started or stopped trial moves the end date: show the new one
  useEffect(() => setEndDate(toDateInput(user.subscriptionEndDate)), [user.subscriptionEndDate]);
  useEffect(() => {
    setType(user.userType);
    setParent(user.parent?._id ?? '');
  }, [user.userType, user.parent?._id]);
  const parentList = parentListFor(type);
  const { data: parents } = useSWR<UserDto[]>(parentList, fetcher);
  const { data: children, mutate: reloadChildren } = useSWR<UserDto[]>(`/api/user/childUsers/${user._id}`, fetcher);
  const typeChanged = type !== user.userType;
  const act = async (fn: () => Promise<{ message: string }>) => {
    const res = await run(fn, { success: (r) => r.message });
    if (res) {
      onSaved();
      void reloadChildren();
    }
  };
  const chooseType = (next: UserDto['userType']) => {
    setType(next);
    setParent(next === user.userType ? (user.parent?._id ?? '') : '');
  };
  const saveType = () =>
    act(() => put(`/api/user/update/userType/${user._id}`, parentList ? { userNewType: type, newParent: parent || null } : { userNewType: type }));
  return (
    <div className="grid-2">
      <Card title="Trial">
        <p data-testid="trial-state">
          Trial: <span className={`label-pill ${user.isTrialPeriod ? 'pill-ok' : 'pill-off'}`}>{user.isTrialPeriod ? 'On' : 'Off'}</span>
        </p>
        <div className="form">
          {user.isTrialPeriod ? (
            <Button variant="danger" disabled={loading} onClick={() => act(() => put(`/api/user/update/trialPeriodState/${user._id}`, { isActive: false }))}>
              Stop Trial
            </Button>
          ) : (
            <Button disabled={loading} onClick={() => act(() => put(`/api/user/update/trialPeriodState/${user._id}`, { isActive: true }))}>
              Start Trial
            </Button>
          )}
          <div className="form-row">
            <Field label="End date" type="date" value={endDate} onChange={(e) => setEndDate(e.target.value)} />
            <Button
              variant="secondary"
              disabled={loading || !endDate}
              onClick={() => act(() => put(`/api/user/update/trialPeriodEndDate/${user._id}`, { newDate: endDate }))}
            >
              Save date
            </Button>
          </div>
        </div>
      </Card>
      <Card title="Role and team">
        <div className="form">
          <div className="field">
            <label htmlFor="pf-type">User type</label>
            <select id="pf-type" value={type} onChange={(e) => chooseType(e.target.value as UserDto['userType'])}>
              {USER_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          {parentList && (
            <div className="field">
              <label htmlFor="pf-parent">{type === 'agent' ? 'Parent manager' : 'Parent director'}</label>
              <select id="pf-parent" value={parent} onChange={(e) => setParent(e.target.value)}>
                <option value="">{type === 'agent' ? 'Select the parent manager' : 'No director'}</option>
                {(parents ?? [])
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
              <Button variant="secondary" disabled={loading} onClick={saveType}>
                Change type
              </Button>
            ) : (
              parentList && (
                <Button
                  variant="secondary"
                  disabled={loading || parent === (user.parent?._id ?? '')}
                  onClick={() => act(() => put(`/api/user/update/parent/${user._id}`, { newParent: parent || null }))}
                >
                  Change parent
                </Button>
              )
            )}
          </div>
          <div>
            <span className="stat-label">Children</span>
            {children?.length ? (
              <ul className="inline-list" data-testid="children">
                {children.map((c) => (
                  <li key={c._id}>
                    <Link to={`/profile/${c._id}`}>{c.name}</Link>{' '}
                    <span className="muted">
                      ({c.userType}, {c.email})
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No children</p>
            )}
          </div>
        </div>
      </Card>
    </div>
  );
}
