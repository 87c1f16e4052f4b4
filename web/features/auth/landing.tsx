import { type FormEvent, lazy, Suspense, useState } from 'react';
import { AUTH_MESSAGES } from '../../../worker/auth/auth.messages';
import { problem } from '../../../worker/lib/messages';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { LanguageSelect } from '../../components/ui/language-select';
import { Spinner } from '../../components/ui/spinner';
import { messageText } from '../../i18n/errors';
import { followUserLanguage, loadLibrary, pickedLanguage, useText } from '../../i18n/startup';
import { getDeviceToken, saveDeviceToken, setSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { login, sendPasswordHash } from './api';

type Mode = 'login' | 'register' | 'forgotPassword';

// The registration form carries the phone-number metadata, the shared zod schema and i18next:
// loaded only when a visitor opens it, so the login page stays small.
const RegisterForm = lazy(() => Promise.all([import('./register-form'), loadLibrary()]).then(([module]) => module));

/** `/` when logged out: login, Manager Registration and forgot password, switched in place. */
export default function Landing() {
  const { t } = useText();
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
        <p>{t('app.tagline')}</p>
      </div>
      <div className="landing-card">
        <LanguageSelect picked className="landing-language" />
        {notice && mode === 'login' && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {mode === 'login' && (
          <LoginForm
            onMode={(m) => {
              setNotice(null);
              setMode(m);
            }}
          />
        )}
        {mode === 'register' && (
          <Suspense fallback={<Spinner />}>
            <RegisterForm onDone={back} />
          </Suspense>
        )}
        {mode === 'forgotPassword' && <ForgotForm onDone={back} />}
      </div>
    </div>
  );
}

function LoginForm({ onMode }: { onMode: (m: Mode) => void }) {
  const { t } = useText();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { loading, error, run } = useRequest();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await run(() => login(email, password, getDeviceToken(email), pickedLanguage()), { silent: true });
    if (!res) return;
    // the user's language, saved at this sign-in when picked here (decision 0023)
    followUserLanguage(res.language);
    // kept beside the session (not in userData, whose shape the spec fixes) for the next login here
    saveDeviceToken(res.email, res.deviceToken);
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
    <form onSubmit={submit} className="form" aria-label={t('auth.login')}>
      <h2>{t('auth.login')}</h2>
      <Field label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <Field
        label={t('auth.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <ErrorText>{error}</ErrorText>
      <Button type="submit" disabled={loading}>
        {loading ? t('auth.loggingIn') : t('auth.login')}
      </Button>
      <div className="form-links">
        <Button variant="link" onClick={() => onMode('forgotPassword')}>
          {t('auth.forgotPassword')}
        </Button>
        <Button variant="link" onClick={() => onMode('register')}>
          {t('auth.register')}
        </Button>
      </div>
    </form>
  );
}

function ForgotForm({ onDone }: { onDone: (message?: string) => void }) {
  const { t } = useText();
  const [email, setEmail] = useState('');
  const [clientError, setClientError] = useState<string | null>(null);
  const { loading, error, run } = useRequest();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // the API's rule (emailSchema), without loading zod on the login page
    if (!email.trim()) return setClientError(problem(AUTH_MESSAGES.emailEmpty));
    setClientError(null);
    const res = await run(() => sendPasswordHash(email), { silent: true });
    // the API answers the same text whatever the address: said in the user's language
    if (res) onDone(t('auth.resetSent'));
  };
  return (
    <form onSubmit={submit} className="form" aria-label={t('auth.forgotTitle')}>
      <h2>{t('auth.forgotTitle')}</h2>
      <Field label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <ErrorText>{messageText(clientError) || error}</ErrorText>
      <Button type="submit" disabled={loading}>
        {t('auth.sendEmail')}
      </Button>
      <div className="form-links">
        <Button variant="link" onClick={() => onDone()}>
          {t('auth.back')}
        </Button>
      </div>
    </form>
  );
}
