import type { ComponentProps, ReactNode } from 'react';
import { useParams } from 'react-router';
import { normalizeEmail } from '../../../worker/lib/text';
import { emailFormSchema, newNameSchema, passwordFormSchema } from '../../../worker/users/users.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { Card, CollapsibleSection } from '../../components/ui/section';
import { Pending } from '../../components/ui/request-state';
import { ApiFailure } from '../../lib/api-client';
import { shortDate } from '../../lib/format';
import { updateSession, useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { useSchemaForm } from '../../lib/use-schema-form';
import { UnsavedChangesScope, useUnsavedSection } from '../../lib/use-unsaved-changes';
import { isStaff } from '../../../worker/lib/permissions';
import { AdminPanel } from './admin-panel';
import { RemindersCard } from './reminders-card';
import { ActiveSessions } from './sessions';
import { resendVerification, updateEmail, updateName, updatePassword, type UserDto, useUser } from './api';

/** /profile/ (me) and /profile/{id}: details, updates, and for the admin trial, type, parent, children. */
export default function Profile() {
  const session = useSession();
  const { id } = useParams();
  const userId = id || session?.userId;
  const read = useUser(userId);
  const { data: user, error, mutate } = read;
  const isAdmin = session?.userType === 'admin';
  if (!user)
    return (
      <div className="page">
        {error instanceof ApiFailure && error.status === 404 ? <p className="muted">User not found</p> : <Pending what="the profile" state={read} />}
      </div>
    );
  const isMe = user._id === session?.userId;
  // the server's rule (users.service mayManage): the admin, the user itself, an agent's own manager
  const canManage = isAdmin || isMe || (session?.userType === 'manager' && user.userType === 'agent' && user.parent?._id === session.userId);
  return (
    <div className="page narrow-wide">
      <div className="page-header">
        <h1>{isMe ? 'My Profile' : `Profile: ${user.name}`}</h1>
      </div>
      <Card>
        <dl className="kv" data-testid="profile-details">
          <dt>Name</dt>
          <dd>{user.name}</dd>
          <dt>E-mail</dt>
          <dd>
            {user.email}{' '}
            {user.isEmailVerified ? <span className="label-pill pill-ok">verified</span> : <span className="label-pill pill-warn">not verified</span>}
          </dd>
          {/* staff (admin, marketing) have no subscription */}
          {!isStaff(user.userType) && (
            <>
              <dt>Next Payment Date</dt>
              <dd data-testid="next-payment-date">{user.subscriptionEndDate ? shortDate(user.subscriptionEndDate) : 'No subscription yet'}</dd>
            </>
          )}
          {!isMe && (
            <>
              <dt>User type</dt>
              <dd>{user.userType}</dd>
            </>
          )}
        </dl>
        {!user.isEmailVerified && canManage && <ResendVerification userId={user._id} />}
      </Card>
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
  const { loading, run } = useRequest();
  return (
    <div className="form-row" style={{ marginTop: '0.75rem' }}>
      <Button variant="secondary" disabled={loading} onClick={() => run(() => resendVerification(userId), { success: (r) => r.message })}>
        Resend email verification
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
  const form = useSchemaForm<{ newName: string }>(newNameSchema, { newName: '' });
  const { loading, run } = useRequest();
  const onValid = async ({ newName }: { newName: string }) => {
    const res = await run(() => updateName(user._id, newName), { success: (r) => r.message });
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
    <Section title="Update name">
      <form className="form" onSubmit={submit} noValidate aria-label="Update name">
        <Field label="New name" {...form.register('newName')} />
        <ErrorText>{form.problem}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            Save name
          </Button>
        </div>
      </form>
    </Section>
  );
}

/** Changing one's own e-mail or password asks for the current password (a stolen session alone must not take the account). */
function CurrentPasswordField(props: ComponentProps<'input'>) {
  return <Field {...props} label="Current password" type="password" autoComplete="current-password" hint="Confirm the change with the password you use now." />;
}

function EmailSection({ user, onSaved, isMe }: { user: UserDto; onSaved: () => void; isMe: boolean }) {
  const form = useSchemaForm<{ newEmail: string; currentPassword: string }>(emailFormSchema(isMe), { newEmail: '', currentPassword: '' });
  const { loading, run } = useRequest();
  const onValid = async ({ newEmail, currentPassword }: { newEmail: string; currentPassword: string }) => {
    const res = await run(() => updateEmail(user._id, newEmail, isMe ? currentPassword : undefined), { success: (r) => r.message });
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
    <Section title="Update e-mail">
      <form className="form" onSubmit={submit} noValidate aria-label="Update e-mail">
        <Field label="New e-mail" type="email" hint="The new address must be verified again." {...form.register('newEmail')} />
        {isMe && <CurrentPasswordField {...form.register('currentPassword')} />}
        <ErrorText>{form.problem}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            Save e-mail
          </Button>
        </div>
      </form>
    </Section>
  );
}

function PasswordSection({ user, isMe }: { user: UserDto; isMe: boolean }) {
  const form = useSchemaForm<{ newPassword: string; repeatPassword: string; currentPassword: string }>(passwordFormSchema(isMe), {
    newPassword: '',
    repeatPassword: '',
    currentPassword: '',
  });
  const { loading, run } = useRequest();
  // the spec's messages first ('Password is empty', "Passwords don't match"), then the current password
  const onValid = async ({ newPassword, currentPassword }: { newPassword: string; currentPassword: string }) => {
    const res = await run(() => updatePassword(user._id, newPassword, isMe ? currentPassword : undefined), { success: (r) => r.message });
    if (res) {
      if (isMe && res.accessToken) updateSession({ token: res.accessToken });
      form.reset();
    }
    return !!res;
  };
  const submit = form.handleSubmit(onValid);
  useUnsavedSection(form.formState.isDirty, () => saveForm(form.handleSubmit, onValid));
  return (
    <Section title="Update password">
      <form className="form" onSubmit={submit} noValidate aria-label="Update password">
        <Field label="New password" type="password" autoComplete="new-password" {...form.register('newPassword')} />
        <Field label="Repeat new password" type="password" autoComplete="new-password" {...form.register('repeatPassword')} />
        {isMe && <CurrentPasswordField {...form.register('currentPassword')} />}
        <ErrorText>{form.problem}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            Save password
          </Button>
        </div>
      </form>
    </Section>
  );
}
