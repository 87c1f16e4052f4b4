import { type RegisterInput, registerSchema } from '../../../worker/auth/auth.schema';
import { Button } from '../../components/ui/button';
import { CountrySelect, callingCodePrefix } from '../../components/ui/country-select';
import { ErrorText, Field, FieldError } from '../../components/ui/field';
import { useRequest } from '../../lib/use-request';
import { useSchemaForm } from '../../lib/use-schema-form';
import { register } from './api';

type Form = Required<RegisterInput>;

/** Manager Registration: the API's own schema checks it in the spec's order before anything is sent. */
export default function RegisterForm({ onDone }: { onDone: (message?: string) => void }) {
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
    const res = await run(() => register(values), { silent: true });
    if (res) onDone(res.message);
  });
  return (
    <form onSubmit={submit} className="form" aria-label="Manager Registration" noValidate>
      <h2>Manager Registration</h2>
      <Field label="Name" autoComplete="name" error={form.errorFor('name')} {...form.register('name')} />
      <Field label="Email" type="email" autoComplete="email" error={form.errorFor('email')} {...form.register('email')} />
      <Field label="Password" type="password" autoComplete="new-password" error={form.errorFor('password')} {...form.register('password')} />
      <div className="field">
        <label htmlFor="reg-country">Country</label>
        <CountrySelect id="reg-country" name="country" value={country} placeholder="Select your country" onChange={chooseCountry} />
        <FieldError id="reg-country-error">{form.errorFor('country')}</FieldError>
      </div>
      <Field
        label="Phone"
        type="tel"
        autoComplete="tel"
        disabled={!country}
        placeholder={country ? '' : 'Choose a country first'}
        error={form.errorFor('phone')}
        {...form.register('phone')}
      />
      <Field label="Repeat password" type="password" autoComplete="new-password" error={form.errorFor('repeatPassword')} {...form.register('repeatPassword')} />
      <ErrorText>{form.otherProblem() ?? error}</ErrorText>
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
