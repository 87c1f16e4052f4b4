import { USER_TYPES } from '../../../worker/users/users.schema';
import type { UserType } from './api';

/** The user type select of Create user and the admin's profile panel. */
export function UserTypeSelect({ id, value, onChange }: { id: string; value: UserType; onChange: (type: UserType) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>User type</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as UserType)}>
        {USER_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </div>
  );
}
