import { type FormEvent, useState } from 'react';
import { registrationError } from '../../../worker/auth/auth.schema';
import { Button } from '../../components/ui/button';
import { CountrySelect, callingCodePrefix } from '../../components/ui/country-select';
import { ErrorText, Field } from '../../components/ui/field';
import { useRequest } from '../../lib/use-request';
import { register } from './api';

/** Manager Registration: validated in the spec's order before anything is sent. */
export default function RegisterForm({ onDone }: { onDone: (message?: string) => void }) {
  const [form, setForm] = useState({ name: '', email: '', password: '', country: '', phone: '', repeatPassword: '' });
  const [clientError, setClientError] = useState<string | null>(null);
  const { loading, error, run } = useRequest();
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const chooseCountry = (country: string) => setForm((f) => ({ ...f, country, phone: callingCodePrefix(country) }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = registrationError(form);
    setClientError(problem);
    if (problem) return;
    const res = await run(() => register(form), { silent: true });
    if (res) onDone(res.message);
  };
  return (
    <form onSubmit={submit} className="form" aria-label="Manager Registration" noValidate>
      <h2>Manager Registration</h2>
      <Field label="Name" name="name" autoComplete="name" value={form.name} onChange={set('name')} />
      <Field label="Email" type="email" name="email" autoComplete="email" value={form.email} onChange={set('email')} />
      <Field label="Password" type="password" name="password" autoComplete="new-password" value={form.password} onChange={set('password')} />
      <div className="field">
        <label htmlFor="reg-country">Country</label>
        <CountrySelect id="reg-country" name="country" value={form.country} placeholder="Select your country" onChange={chooseCountry} />
      </div>
      <Field
        label="Phone"
        type="tel"
        name="phone"
        autoComplete="tel"
        disabled={!form.country}
        placeholder={form.country ? '' : 'Choose a country first'}
        value={form.phone}
        onChange={set('phone')}
      />
      <Field
        label="Repeat password"
        type="password"
        name="repeatPassword"
        autoComplete="new-password"
        value={form.repeatPassword}
        onChange={set('repeatPassword')}
      />
      <ErrorText>{clientError ?? error}</ErrorText>
      <Button type="submit" disabled={loading}>
        Register
      </Button>
      <div className="form-links">
        <Button variant="link" onClick={() => onDone()}>
          Back to Login
        </Button>
      </div>
    </form>
  );
}
