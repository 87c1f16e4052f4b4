import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isStaff } from '../../../worker/lib/permissions';
import { normalizeEmail } from '../../../worker/lib/text';
import { emailFormSchema, newNameSchema, passwordFormSchema } from '../../../worker/users/users.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { Pending } from '../../components/ui/request-state';
import { Card, CollapsibleSection } from '../../components/ui/section';
import { UnsavedChangesScope, useUnsavedSection } from '../../components/unsaved-changes';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-users.json';
import { messageText } from '../../i18n/errors';
import { ApiFailure } from '../../lib/api-client';
import { shortDate } from '../../lib/format';
import { updateSession, useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { useSchemaForm } from '../../lib/use-schema-form';
import { AdminPanel } from './admin-panel';
import { resendVerification, type UserDto, updateEmail, updateName, updatePassword, useUser } from './api';
import { LanguageCard } from './language-card';
import { RemindersCard } from './reminders-card';
import { ActiveSessions } from './sessions';
import { roleText } from './texts';

// this screen's English texts (the login page's first bundle has none of them)
addEnglish(english);

/** /profile/ (me) and /profile/{id}: details, updates, and for the admin trial, type, parent, children. */
export default function Profile() {
  const { t } = useTranslation();
  const session = useSession();
  const { id } = useParams();
  const userId = id || session?.userId;
  const read = useUser(userId);
  const { data: user, error, mutate } = read;
  const isAdmin = session?.userType === 'admin';
  if (!user)
    return (
      <div className="page">
        {error instanceof ApiFailure && error.status === 404 ? (
          <p className="muted">{t('profile.notFound')}</p>
        ) : (
          <Pending what={t('profile.what')} state={read} />
        )}
      </div>
    );
  const isMe = user._id === session?.userId;
  // the server's rule (users.service mayManage): the admin, the user itself, an agent's own manager
  const canManage = isAdmin || isMe || (session?.userType === 'manager' && user.userType === 'agent' && user.parent?._id === session.userId);
  return (
    <div className="page narrow-wide">
      <div className="page-header">
        <h1>{isMe ? t('profile.mine') : t('profile.of', { name: user.name })}</h1>
      </div>
      <Card>
        <dl className="kv" data-testid="profile-details">
          <dt>{t('profile.name')}</dt>
          <dd>{user.name}</dd>
          <dt>{t('profile.email')}</dt>
          <dd>
            {user.email}{' '}
            {user.isEmailVerified ? (
              <span className="label-pill pill-ok">{t('profile.verified')}</span>
            ) : (
              <span className="label-pill pill-warn">{t('profile.notVerified')}</span>
            )}
          </dd>
          {/* staff (admin, marketing) have no subscription */}
          {!isStaff(user.userType) && (
            <>
              <dt>{t('profile.nextPayment')}</dt>
              <dd data-testid="next-payment-date">{user.subscriptionEndDate ? shortDate(user.subscriptionEndDate) : t('profile.noSubscription')}</dd>
            </>
          )}
          {!isMe && (
            <>
              <dt>{t('profile.userType')}</dt>
              <dd>{roleText(t, user.userType)}</dd>
            </>
          )}
        </dl>
        {!user.isEmailVerified && canManage && <ResendVerification userId={user._id} />}
      </Card>
      {(isMe || isAdmin) && <LanguageCard user={user} isMe={isMe} onSaved={mutate} />}
      {(isMe || isAdmin) && !isStaff(user.userType) && <RemindersCard user={user} isMe={isMe} onSaved={mutate} />}
      {canManage && (
        <UnsavedChangesScope>
          <NameSection user={user} onSaved={mutate} isMe={isMe} />
          <EmailSection user={user} onSaved={mutate} isMe={isMe} />
          <PasswordSection user={user} isMe={isMe} />
        </UnsavedChangesScope>
      )}
      {isMe && <ActiveSessions />}
      {isAdmin && !isMe && <AdminPanel key={user._id} user={user} onSaved={mutate} />}
    </div>
  );
}

function ResendVerification({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { loading, run } = useRequest();
  return (
    <div className="form-row" style={{ marginTop: '0.75rem' }}>
      <Button variant="secondary" disabled={loading} onClick={() => run(() => resendVerification(userId), { success: () => t('profile.verificationSent') })}>
        {t('profile.resend')}
      </Button>
    </div>
  );
}

/** Runs a form's checked submit for the unsaved-changes dialog's Save: true when it saved. */
function saveForm<V>(
  // react-hook-form's handleSubmit, for a form whose checked values are V
  handleSubmit: (ok: (v: V) => Promise<void>, bad: () => void) => () => Promise<void>,
  onValid: (v: V) => Promise<boolean>,
) {
  return new Promise<boolean>((resolve) => {
    void handleSubmit(
      async (v) => resolve(await onValid(v)),
      () => resolve(false),
    )();
  });
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return <CollapsibleSection title={title}>{children}</CollapsibleSection>;
}

function NameSection({ user, onSaved, isMe }: { user: UserDto; onSaved: () => void; isMe: boolean }) {
  const { t } = useTranslation();
  const form = useSchemaForm<{ newName: string }>(newNameSchema, { newName: '' });
  const { loading, run } = useRequest();
  const onValid = async ({ newName }: { newName: string }) => {
    const res = await run(() => updateName(user._id, newName), { success: () => t('profile.nameSaved') });
    if (res) {
      form.reset();
      if (isMe) updateSession({ userName: newName.trim() });
      onSaved();
    }
    return !!res;
  };
  const submit = form.handleSubmit(onValid);
  useUnsavedSection(form.formState.isDirty, () => saveForm(form.handleSubmit, onValid));
  return (
    <Section title={t('profile.updateName')}>
      <form className="form" onSubmit={submit} noValidate aria-label={t('profile.updateName')}>
        <Field label={t('profile.newName')} {...form.register('newName')} />
        <ErrorText>{messageText(form.problem)}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            {t('profile.saveName')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

/** Changing one's own e-mail or password asks for the current password (a stolen session alone must not take the account). */
function CurrentPasswordField(props: ComponentProps<'input'>) {
  const { t } = useTranslation();
  return <Field {...props} label={t('profile.currentPassword')} type="password" autoComplete="current-password" hint={t('profile.currentPasswordHint')} />;
}

function EmailSection({ user, onSaved, isMe }: { user: UserDto; onSaved: () => void; isMe: boolean }) {
  const { t } = useTranslation();
  const form = useSchemaForm<{ newEmail: string; currentPassword: string }>(emailFormSchema(isMe), { newEmail: '', currentPassword: '' });
  const { loading, run } = useRequest();
  const onValid = async ({ newEmail, currentPassword }: { newEmail: string; currentPassword: string }) => {
    const res = await run(() => updateEmail(user._id, newEmail, isMe ? currentPassword : undefined), {
      success: (r) => (r.message === 'Email updated' ? t('profile.emailUnchanged') : t('profile.emailSaved')),
    });
    if (res) {
      // the change ended every other session; the answer carries this tab's new token
      if (isMe) updateSession({ userEmail: normalizeEmail(newEmail), ...('accessToken' in res && res.accessToken ? { token: res.accessToken } : {}) });
      form.reset();
      onSaved();
    }
    return !!res;
  };
  const submit = form.handleSubmit(onValid);
  useUnsavedSection(form.formState.isDirty, () => saveForm(form.handleSubmit, onValid));
  return (
    <Section title={t('profile.updateEmail')}>
      <form className="form" onSubmit={submit} noValidate aria-label={t('profile.updateEmail')}>
        <Field label={t('profile.newEmail')} type="email" hint={t('profile.newEmailHint')} {...form.register('newEmail')} />
        {isMe && <CurrentPasswordField {...form.register('currentPassword')} />}
        <ErrorText>{messageText(form.problem)}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            {t('profile.saveEmail')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function PasswordSection({ user, isMe }: { user: UserDto; isMe: boolean }) {
  const { t } = useTranslation();
  const form = useSchemaForm<{ newPassword: string; repeatPassword: string; currentPassword: string }>(passwordFormSchema(isMe), {
    newPassword: '',
    repeatPassword: '',
    currentPassword: '',
  });
  const { loading, run } = useRequest();
  // the spec's messages first ('Password is empty', "Passwords don't match"), then the current password
  const onValid = async ({ newPassword, currentPassword }: { newPassword: string; currentPassword: string }) => {
    const res = await run(() => updatePassword(user._id, newPassword, isMe ? currentPassword : undefined), {
      success: () => t('profile.passwordSaved'),
    });
    if (res) {
      if (isMe && res.accessToken) updateSession({ token: res.accessToken });
      form.reset();
    }
    return !!res;
  };
  const submit = form.handleSubmit(onValid);
  useUnsavedSection(form.formState.isDirty, () => saveForm(form.handleSubmit, onValid));
  return (
    <Section title={t('profile.updatePassword')}>
      <form className="form" onSubmit={submit} noValidate aria-label={t('profile.updatePassword')}>
        <Field label={t('profile.newPassword')} type="password" autoComplete="new-password" {...form.register('newPassword')} />
        <Field label={t('profile.repeatNewPassword')} type="password" autoComplete="new-password" {...form.register('repeatPassword')} />
        {isMe && <CurrentPasswordField {...form.register('currentPassword')} />}
        <ErrorText>{messageText(form.problem)}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            {t('profile.savePassword')}
          </Button>
        </div>
      </form>
    </Section>
  );
}
