import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../components/ui/section';
import { useRequest } from '../../lib/use-request';
import { type UserDto, updateReminders } from './api';

/** Profile: e-mails 7, 3 and 1 days before the subscription ends and on the day (and, for a manager, its agents' digest). */
export function RemindersCard({ user, isMe, onSaved }: { user: UserDto; isMe: boolean; onSaved: () => void }) {
  const { t } = useTranslation();
  const { loading, run } = useRequest();
  // shown at once; put back if the server refuses
  const [on, setOn] = useState(user.remindersEnabled);
  const toggle = async (remindersEnabled: boolean) => {
    setOn(remindersEnabled);
    if (await run(() => updateReminders(user._id, remindersEnabled), { success: (r) => (r.remindersEnabled ? t('reminders.on') : t('reminders.off')) }))
      onSaved();
    else setOn(!remindersEnabled);
  };
  return (
    <Card title={t('reminders.title')}>
      <label className="check-line" data-testid="reminders-toggle">
        <input type="checkbox" checked={on} disabled={loading} onChange={(e) => toggle(e.target.checked)} />
        {isMe ? t('reminders.mine') : t('reminders.theirs')}
      </label>
      <p className="muted field-hint">{user.userType === 'manager' ? t('reminders.whenManager') : t('reminders.when')}</p>
    </Card>
  );
}
