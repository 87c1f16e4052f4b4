import { useState } from 'react';
import { Card } from '../../components/ui/section';
import { useRequest } from '../../lib/use-request';
import { type UserDto, updateReminders } from './api';

/** Profile: e-mails 7, 3 and 1 days before the subscription ends and on the day (and, for a manager, its agents' digest). */
export function RemindersCard({ user, isMe, onSaved }: { user: UserDto; isMe: boolean; onSaved: () => void }) {
  const { loading, run } = useRequest();
  // shown at once; put back if the server refuses
  const [on, setOn] = useState(user.remindersEnabled);
  const toggle = async (remindersEnabled: boolean) => {
    setOn(remindersEnabled);
    if (await run(() => updateReminders(user._id, remindersEnabled), { success: (r) => r.message })) onSaved();
    else setOn(!remindersEnabled);
  };
  const whose = isMe ? 'my' : 'the';
  return (
    <Card title="Reminders">
      <label className="check-line" data-testid="reminders-toggle">
        <input type="checkbox" checked={on} disabled={loading} onChange={(e) => toggle(e.target.checked)} />
        E-mail me before {whose} subscription ends
      </label>
      <p className="muted field-hint">
        7, 3 and 1 days before the end date and on the day it ends
        {user.userType === 'manager' ? ', with a list of the agents whose subscriptions end soon' : ''}.
      </p>
    </Card>
  );
}
