import { useTranslation } from 'react-i18next';
import { USER_TYPES } from '../../../worker/users/users.schema';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-users.json';
import { ROLE_NAMES } from '../../lib/roles';
import type { UserType } from './api';

addEnglish(english);

/** The user type select of Create user and the admin's profile panel. */
export function UserTypeSelect({ id, value, onChange }: { id: string; value: UserType; onChange: (type: UserType) => void }) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={id}>{t('users.userType')}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as UserType)}>
        {USER_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(ROLE_NAMES[type])}
          </option>
        ))}
      </select>
    </div>
  );
}
