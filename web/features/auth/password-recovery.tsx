import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { resetPasswordFormSchema } from '../../../worker/auth/auth.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { useToast } from '../../lib/toast';
import { useSchemaForm } from '../../lib/use-schema-form';
import { resetPassword } from './api';

/** `/passwordRecovery/{hash}`: New Password, Repeat password, Save Password; success goes to '/'. */
export default function PasswordRecovery() {
  const { hash = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const form = useSchemaForm<{ newPassword: string; repeatPassword: string }>(resetPasswordFormSchema, { newPassword: '', repeatPassword: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = form.handleSubmit(async ({ newPassword }) => {
    setError(null);
    setBusy(true);
    try {
      const res = await resetPassword(hash, newPassword);
      toast.show(res.message, 'success');
      navigate('/', { replace: true });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Something went wrong');
    } finally {
      setBusy(false);
    }
  });
  return (
    <form className="center-card form" onSubmit={submit} aria-label="Reset password">
      <h1>Reset password</h1>
      <Field label="New Password" type="password" autoComplete="new-password" {...form.register('newPassword')} />
      <Field label="Repeat password" type="password" autoComplete="new-password" {...form.register('repeatPassword')} />
      <ErrorText>{form.problem ?? error}</ErrorText>
      <Button type="submit" disabled={busy}>
        Save Password
      </Button>
    </form>
  );
}
