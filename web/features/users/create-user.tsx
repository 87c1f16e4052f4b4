import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { mutate } from 'swr';
import { createUserError, createUserPhone, USER_MESSAGES } from '../../../worker/users/users.schema';
import { Button } from '../../components/ui/button';
import { CountrySelect, callingCodePrefix } from '../../components/ui/country-select';
import { Card } from '../../components/ui/section';
import { ErrorText, Field } from '../../components/ui/field';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { createUser, USERS_KEY, type UserType, useDirectors, useManagers } from './api';
import { UserTypeSelect } from './user-type-select';
import './users.css';

/** /createUser: Add Agent for a manager; Add new user (any type) for the admin. */
export default function CreateUser() {
  const session = useSession();
  const isAdmin = session?.userType === 'admin';
  const navigate = useNavigate();
  const [form, setForm] = useState({ email: '', name: '', password: '', phone: '', country: '', newUserType: 'agent' as UserType, parentUser: '' });
  const [clientError, setClientError] = useState<string | null>(null);
  const { loading, error, clearError, run } = useRequest();
  const { data: managers } = useManagers(isAdmin);
  const { data: directors } = useDirectors(isAdmin);
  // a message answers the last try: editing the form clears it
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every edit of the form, by design
  useEffect(() => {
    setClientError(null);
    clearError();
  }, [form]);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const contact = isAdmin ? createUserPhone(form.phone, form.country) : null;
    const problem =
      createUserError(form) ??
      (isAdmin && !contact ? USER_MESSAGES.phone : null) ??
      (isAdmin && form.newUserType === 'agent' && !form.parentUser ? USER_MESSAGES.parentRequired : null);
    setClientError(problem);
    if (problem) return;
    const body = isAdmin ? { ...form, ...contact, parentUser: form.parentUser || null } : { email: form.email, name: form.name, password: form.password };
    const res = await run(() => createUser(body), { success: (r) => r.message, silent: true });
    if (res) {
      await mutate(USERS_KEY);
      navigate('/users');
    }
  };

  const parentChoices = form.newUserType === 'agent' ? managers : form.newUserType === 'manager' ? directors : undefined;
  return (
    <div className="page narrow">
      <Card title={isAdmin ? 'Add new user' : 'Add Agent'}>
        <form className="form" onSubmit={submit} noValidate aria-label={isAdmin ? 'Add new user' : 'Add Agent'}>
          <Field label="Email" type="email" autoComplete="off" value={form.email} onChange={set('email')} />
          <Field label="Name" value={form.name} onChange={set('name')} />
          <Field label="Password" type="password" autoComplete="new-password" value={form.password} onChange={set('password')} />
          {isAdmin && (
            <>
              <div className="form-row split-row">
                <div className="field">
                  <label htmlFor="cu-country">Country</label>
                  <CountrySelect
                    id="cu-country"
                    value={form.country}
                    placeholder="Select country"
                    onChange={(country) => setForm((f) => ({ ...f, country, phone: callingCodePrefix(country) }))}
                  />
                </div>
                <Field
                  label="Phone (optional)"
                  type="tel"
                  disabled={!form.country}
                  placeholder={form.country ? '' : 'Choose a country first'}
                  value={form.phone}
                  onChange={set('phone')}
                />
              </div>
              <UserTypeSelect id="cu-type" value={form.newUserType} onChange={(newUserType) => setForm((f) => ({ ...f, newUserType, parentUser: '' }))} />
              {parentChoices && (
                <div className="field">
                  <label htmlFor="cu-parent">{form.newUserType === 'agent' ? 'Parent manager' : 'Director (optional)'}</label>
                  <select id="cu-parent" value={form.parentUser} onChange={set('parentUser')}>
                    <option value="">{form.newUserType === 'agent' ? 'Select the parent manager' : 'No director'}</option>
                    {parentChoices.map((u) => (
                      <option key={u._id} value={u._id}>
                        {u.name} ({u.email})
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </>
          )}
          <ErrorText>{clientError ?? error}</ErrorText>
          <div className="form-row">
            <Button type="submit" disabled={loading}>
              {loading ? 'Creating…' : 'Create'}
            </Button>
            <Button variant="ghost" onClick={() => navigate('/users')}>
              Cancel
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
