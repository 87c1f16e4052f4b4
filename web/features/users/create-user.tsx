import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { mutate } from 'swr';
import { adminCreateUserSchema, createUserSchema } from '../../../worker/users/users.schema';
import { Button } from '../../components/ui/button';
import { CountrySelect, callingCodePrefix } from '../../components/ui/country-select';
import { ErrorText, Field } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-users.json';
import { messageText } from '../../i18n/errors';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { useSchemaForm } from '../../lib/use-schema-form';
import { createUser, USERS_KEY, type UserType, useDirectors, useManagers } from './api';
import { UserTypeSelect } from './user-type-select';
import './users.css';

// this screen's English texts (the login page's first bundle has none of them)
addEnglish(english);

type Form = { email: string; name: string; password: string; phone: string; country: string; newUserType: UserType; parentUser: string };

/** /createUser: Add Agent for a manager; Add new user (any type) for the admin. Checked by the API's own schema. */
export default function CreateUser() {
  const { t } = useTranslation();
  const session = useSession();
  const isAdmin = session?.userType === 'admin';
  const navigate = useNavigate();
  const form = useSchemaForm<Form>(isAdmin ? adminCreateUserSchema : createUserSchema, {
    email: '',
    name: '',
    password: '',
    phone: '',
    country: '',
    newUserType: 'agent',
    parentUser: '',
  });
  const { loading, error, clearError, run } = useRequest();
  const { data: managers } = useManagers(isAdmin);
  const { data: directors } = useDirectors(isAdmin);
  const { watch, setValue } = form;
  // the server's message answers the last try: editing the form clears it (the form's own
  // messages clear themselves as their field is corrected: useSchemaForm checks again on change)
  useEffect(() => {
    const edits = watch(() => clearError());
    return () => edits.unsubscribe();
  }, [watch, clearError]);
  const [country, newUserType, parentUser] = watch(['country', 'newUserType', 'parentUser']);

  const submit = form.handleSubmit(async (values) => {
    const body = isAdmin ? { ...values, parentUser: values.parentUser || null } : { email: values.email, name: values.name, password: values.password };
    const res = await run(() => createUser(body), { success: () => t('createUser.created'), silent: true });
    if (res) {
      await mutate(USERS_KEY);
      navigate('/users');
    }
  });

  const parentChoices = newUserType === 'agent' ? managers : newUserType === 'manager' ? directors : undefined;
  const title = isAdmin ? t('createUser.titleAdmin') : t('createUser.titleAgent');
  return (
    <div className="page narrow">
      <Card title={title} headingLevel={1}>
        <form className="form" onSubmit={submit} noValidate aria-label={title}>
          <Field label={t('users.email')} type="email" autoComplete="off" error={messageText(form.errorFor('email'))} {...form.register('email')} />
          <Field label={t('users.name')} error={messageText(form.errorFor('name'))} {...form.register('name')} />
          <Field
            label={t('createUser.password')}
            type="password"
            autoComplete="new-password"
            error={messageText(form.errorFor('password'))}
            {...form.register('password')}
          />
          {isAdmin && (
            <>
              <div className="form-row split-row">
                <div className="field">
                  <label htmlFor="cu-country">{t('users.country')}</label>
                  <CountrySelect
                    id="cu-country"
                    value={country}
                    placeholder={t('createUser.selectCountry')}
                    onChange={(code) => {
                      const shouldValidate = form.formState.isSubmitted;
                      setValue('country', code, { shouldValidate });
                      setValue('phone', callingCodePrefix(code), { shouldValidate });
                    }}
                  />
                </div>
                <Field
                  label={t('createUser.phoneOptional')}
                  type="tel"
                  disabled={!country}
                  placeholder={country ? '' : t('createUser.countryFirst')}
                  error={messageText(form.errorFor('phone'))}
                  {...form.register('phone')}
                />
              </div>
              <UserTypeSelect
                id="cu-type"
                value={newUserType}
                onChange={(type) => {
                  setValue('newUserType', type);
                  setValue('parentUser', '');
                }}
              />
              {parentChoices && (
                <div className="field">
                  <label htmlFor="cu-parent">{newUserType === 'agent' ? t('createUser.parentManager') : t('createUser.directorOptional')}</label>
                  <select id="cu-parent" value={parentUser} onChange={(e) => setValue('parentUser', e.target.value)}>
                    <option value="">{newUserType === 'agent' ? t('createUser.selectManager') : t('createUser.noDirector')}</option>
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
          <ErrorText>{messageText(form.otherProblem()) || error}</ErrorText>
          <div className="form-row">
            <Button type="submit" disabled={loading}>
              {loading ? t('createUser.creating') : t('createUser.create')}
            </Button>
            <Button variant="ghost" onClick={() => navigate('/users')}>
              {t('users.cancel')}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
