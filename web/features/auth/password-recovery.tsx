import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { resetPasswordError } from '../../../worker/auth/auth.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { useToast } from '../../components/ui/toast';
import { resetPassword } from './api';

/** `/passwordRecovery/{hash}`: New Password, Repeat password, Save Password; success goes to '/'. */
export default function PasswordRecovery() {
  const { hash = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = resetPasswordError(password, repeat);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const res = await resetPassword(hash, password);
      toast.show(res.message, 'success');
      navigate('/', { replace: true });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Something went wrong');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="center-card form" onSubmit={submit} aria-label="Reset password">
      <h1>Reset password</h1>
      <Field label="New Password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <Field label="Repeat password" type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
      <ErrorText>{error}</ErrorText>
      <Button type="submit" disabled={busy}>
        Save Password
      </Button>
    </form>
  );
}
