import { useTranslation } from 'react-i18next';
import { type RegisterInput, registerSchema } from '../../../worker/auth/auth.schema';
import { Button } from '../../components/ui/button';
import { CountrySelect, callingCodePrefix } from '../../components/ui/country-select';
import { ErrorText, Field, FieldError } from '../../components/ui/field';
import { currentLanguage } from '../../i18n';
import { messageText } from '../../i18n/errors';
import { useRequest } from '../../lib/use-request';
import { useSchemaForm } from '../../lib/use-schema-form';
import { register } from './api';

type Form = Required<RegisterInput>;

/** Manager Registration: the API's own schema checks it in the spec's order before anything is sent. */
export default function RegisterForm({ onDone }: { onDone: (message?: string) => void }) {
  const { t } = useTranslation();
  // the shared schema's messages, in the user's language
  const errorFor = (field: keyof Form) => messageText(form.errorFor(field)) || null;
  const form = useSchemaForm<Form>(registerSchema, { name: '', email: '', password: '', country: '', phone: '', repeatPassword: '' });
  const { loading, error, run } = useRequest();
  const country = form.watch('country');
  const chooseCountry = (code: string) => {
    // after a refused submit the messages follow the corrections, the country's too
    const shouldValidate = form.formState.isSubmitted;
    form.setValue('country', code, { shouldValidate });
    form.setValue('phone', callingCodePrefix(code), { shouldValidate });
  };
  const submit = form.handleSubmit(async (values) => {
    // the new manager's language: the one this screen speaks (decision 0023)
    const res = await run(() => register({ ...values, language: currentLanguage() }), { silent: true });
    if (res) onDone(t('auth.registered'));
  });
  return (
    <form onSubmit={submit} className="form" aria-label={t('auth.registerTitle')} noValidate>
      <h2>{t('auth.registerTitle')}</h2>
      <Field label={t('auth.name')} autoComplete="name" error={errorFor('name')} {...form.register('name')} />
      <Field label={t('auth.email')} type="email" autoComplete="email" error={errorFor('email')} {...form.register('email')} />
      <Field label={t('auth.password')} type="password" autoComplete="new-password" error={errorFor('password')} {...form.register('password')} />
      <div className="field">
        <label htmlFor="reg-country">{t('auth.country')}</label>
        <CountrySelect id="reg-country" name="country" value={country} placeholder={t('auth.selectCountry')} onChange={chooseCountry} />
        <FieldError id="reg-country-error">{errorFor('country')}</FieldError>
      </div>
      <Field
        label={t('auth.phone')}
        type="tel"
        autoComplete="tel"
        disabled={!country}
        placeholder={country ? '' : t('auth.countryFirst')}
        error={errorFor('phone')}
        {...form.register('phone')}
      />
      <Field
        label={t('auth.repeatPassword')}
        type="password"
        autoComplete="new-password"
        error={errorFor('repeatPassword')}
        {...form.register('repeatPassword')}
      />
      <ErrorText>{messageText(form.otherProblem()) || error}</ErrorText>
      <Button type="submit" disabled={loading}>
        {t('auth.register')}
      </Button>
      <div className="form-links">
        <Button variant="link" onClick={() => onDone()}>
          {t('auth.backToLogin')}
        </Button>
      </div>
    </form>
  );
}
