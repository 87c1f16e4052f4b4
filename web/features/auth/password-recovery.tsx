import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { resetPasswordFormSchema } from '../../../worker/auth/auth.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { LanguageSelect } from '../../components/ui/language-select';
import { errorText, messageText } from '../../i18n/errors';
import { useToast } from '../../lib/toast';
import { useSchemaForm } from '../../lib/use-schema-form';
import { resetPassword } from './api';

/** `/passwordRecovery/{hash}`: New Password, Repeat password, Save Password; success goes to '/'. */
export default function PasswordRecovery() {
  const { t } = useTranslation();
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
      await resetPassword(hash, newPassword);
      toast.show(t('auth.passwordChanged'), 'success');
      navigate('/', { replace: true });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  });
  return (
    <form className="center-card form" onSubmit={submit} aria-label={t('auth.resetTitle')}>
      <h1>{t('auth.resetTitle')}</h1>
      <LanguageSelect picked />
      <Field label={t('auth.newPassword')} type="password" autoComplete="new-password" {...form.register('newPassword')} />
      <Field label={t('auth.repeatPassword')} type="password" autoComplete="new-password" {...form.register('repeatPassword')} />
      <ErrorText>{messageText(form.problem) || error}</ErrorText>
      <Button type="submit" disabled={busy}>
        {t('auth.savePassword')}
      </Button>
    </form>
  );
}
