import type { Role } from '../../worker/lib/permissions';

/** Each role's name as a catalogue key (`t(ROLE_NAMES[role])`): "Agent", "Агент", "Գործակալ". */
export const ROLE_NAMES: Record<Role, `roles.${Role}`> = {
  admin: 'roles.admin',
  director: 'roles.director',
  manager: 'roles.manager',
  marketing: 'roles.marketing',
  agent: 'roles.agent',
};
