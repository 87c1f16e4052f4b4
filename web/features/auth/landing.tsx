import { type FormEvent, useMemo, useState } from 'react';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';
import { registrationError } from '../../../worker/auth/auth.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { post } from '../../lib/api-client';
import { setSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import type { Role } from '../../../worker/lib/permissions';

type Mode = 'login' | 'register' | 'forgotPassword';

interface LoginResponse {
  accessToken: string;
  userId: string;
  userType: Role;
  name: string;
  email: string;
  isSubscriptionActive: boolean;
}

/** `/` when logged out: login, Manager Registration and forgot password, switched in place. */
export default function Landing() {
  const [mode, setMode] = useState<Mode>('login');
  const [notice, setNotice] = useState<string | null>(null);
  const back = (message?: string) => {
    setNotice(message ?? null);
    setMode('login');
  };
  return (
    <div className="landing">
      <div className="landing-hero">
        <h1>FreightDesk</h1>
        <p>Broker filters, MC lines, contact history and loads for freight broker teams.</p>
      </div>
      <div className="landing-card">
        {notice && mode === 'login' && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {mode === 'login' && <LoginForm onMode={(m) => { setNotice(null); setMode(m); }} />}
        {mode === 'register' && <RegisterForm onDone={back} />}
        {mode === 'forgotPassword' && <ForgotForm onDone={back} />}
      </div>
    </div>
  );
}

function LoginForm({ onMode }: { onMode: (m: Mode) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { loading, error, run } = useRequest();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await run(() => post<LoginResponse>('/api/auth/login', { email, password, clientType: 0 }), { silent: true });
    if (!res) return;
    setSession({
      token: res.accessToken,
      userId: res.userId,
      userType: res.userType,
      userName: res.name,
      userEmail: res.email,
      isSubscriptionActive: res.isSubscriptionActive,
    });
  };
  return (
    <form onSubmit={submit} className="form" aria-label="Login">
      <h2>Login</h2>
      <Field label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <Field label="Password" type="password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <ErrorText>{error}</ErrorText>
      <Button type="submit" disabled={loading}>
        {loading ? 'Logging in…' : 'Login'}
      </Button>
      <div className="form-links">
        <Button variant="link" onClick={() => onMode('forgotPassword')}>
          Forgot Password
        </Button>
        <Button variant="link" onClick={() => onMode('register')}>
          Register
        </Button>
      </div>
    </form>
  );
}

const regionNames = typeof Intl !== 'undefined' && 'DisplayNames' in Intl ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;

function RegisterForm({ onDone }: { onDone: (message?: string) => void }) {
  const [form, setForm] = useState({ name: '', email: '', password: '', country: '', phone: '', repeatPassword: '' });
  const [clientError, setClientError] = useState<string | null>(null);
  const { loading, error, run } = useRequest();
  const countries = useMemo(
    () =>
      getCountries()
        .map((code) => ({ code, name: regionNames?.of(code) ?? code }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [],
  );
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const chooseCountry = (country: string) =>
    setForm((f) => ({ ...f, country, phone: country ? `+${getCountryCallingCode(country as never)}` : '' }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = registrationError(form);
    setClientError(problem);
    if (problem) return;
    const res = await run(() => post<{ message: string }>('/api/auth/register', form), { silent: true });
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
        <select id="reg-country" name="country" value={form.country} onChange={(e) => chooseCountry(e.target.value)}>
          <option value="">Select your country</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
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
      <Field label="Repeat password" type="password" name="repeatPassword" autoComplete="new-password" value={form.repeatPassword} onChange={set('repeatPassword')} />
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

function ForgotForm({ onDone }: { onDone: (message?: string) => void }) {
  const [email, setEmail] = useState('');
  const [clientError, setClientError] = useState<string | null>(null);
  const { loading, error, run } = useRequest();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return setClientError('Email is Empty');
    setClientError(null);
    const res = await run(() => post<{ message: string }>('/api/auth/sendPasswordHash', { email }), { silent: true });
    if (res) onDone(res.message);
  };
  return (
    <form onSubmit={submit} className="form" aria-label="Forgot password">
      <h2>Forgot password</h2>
      <Field label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <ErrorText>{clientError ?? error}</ErrorText>
      <Button type="submit" disabled={loading}>
        Send Email
      </Button>
      <div className="form-links">
        <Button variant="link" onClick={() => onDone()}>
          Back
        </Button>
      </div>
    </form>
  );
}
