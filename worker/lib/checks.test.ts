import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { registerSchema, resetPasswordFormSchema } from '../auth/auth.schema';
import { filterSaveSchema } from '../filters/filters.schema';
import { mcAddSchemaFor } from '../mc-settings/mc-settings.schema';
import { adminCreateUserSchema, createUserSchema, emailFormSchema, passwordFormSchema } from '../users/users.schema';
import { problemText } from './messages';

/** What a form shows: every issue the schema reports (one at most: the first failing check's), in English. */
const issues = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), problemText(i.message)]);
};

const registration = { name: 'Ann', email: 'ann@x.example', password: 'secret1', country: 'AM', phone: '+37491234567', repeatPassword: 'secret1' };

describe('the forms check in the spec order through the schemas (decision 0010)', () => {
  it('registration: one message, the first failing check, even when a later field fails too', () => {
    expect(issues(registerSchema, { ...registration, phone: '+3749', repeatPassword: '' })).toEqual([['phone', 'Wrong phone number']]);
    expect(issues(registerSchema, { ...registration, name: ' ', email: '', password: '' })).toEqual([['name', 'Name is Empty']]);
    expect(issues(registerSchema, { ...registration, country: '', phone: 'x' })).toEqual([['country', 'Select your country']]);
    expect(issues(registerSchema, { ...registration, repeatPassword: 'secret2' })).toEqual([['repeatPassword', "Passwords don't match"]]);
    expect(registerSchema.parse({ ...registration, name: ' Ann ', email: ' ANN@X.example', phone: '091 234567' })).toEqual({
      name: 'Ann',
      email: 'ann@x.example',
      password: 'secret1',
      country: 'AM',
      phone: '+37491234567',
    });
  });

  it('password reset screen: the length first, then the repeat', () => {
    expect(issues(resetPasswordFormSchema, { newPassword: '123', repeatPassword: 'x' })).toEqual([['newPassword', 'Password minimum 6 symbols']]);
    expect(issues(resetPasswordFormSchema, { newPassword: '123456', repeatPassword: 'x' })).toEqual([['repeatPassword', "Passwords don't match"]]);
    expect(issues(resetPasswordFormSchema, { newPassword: '123456', repeatPassword: '123456' })).toEqual([]);
  });

  it('profile password form: both required, then the match, then the length, then one’s own current password', () => {
    const own = passwordFormSchema(true);
    expect(issues(own, { newPassword: 'abcdefg', repeatPassword: '', currentPassword: '' })).toEqual([['repeatPassword', 'Password is empty']]);
    expect(issues(own, { newPassword: '123', repeatPassword: '124', currentPassword: '' })).toEqual([['repeatPassword', "Passwords don't match"]]);
    expect(issues(own, { newPassword: '123', repeatPassword: '123', currentPassword: '' })).toEqual([['newPassword', 'Password minimum 6 symbols']]);
    expect(issues(own, { newPassword: '123456', repeatPassword: '123456', currentPassword: '' })).toEqual([['currentPassword', 'Current password is empty']]);
    // staff changing another user's password are not asked for one
    expect(issues(passwordFormSchema(false), { newPassword: '123456', repeatPassword: '123456', currentPassword: '' })).toEqual([]);
  });

  it('profile e-mail form: the address first, then one’s own current password', () => {
    expect(issues(emailFormSchema(true), { newEmail: 'not-an-address', currentPassword: '' })).toEqual([['newEmail', 'Email is not valid']]);
    expect(issues(emailFormSchema(true), { newEmail: 'a@b.example', currentPassword: '' })).toEqual([['currentPassword', 'Current password is empty']]);
    expect(issues(emailFormSchema(false), { newEmail: 'a@b.example', currentPassword: '' })).toEqual([]);
  });

  it('create user: the spec order, then the admin form’s phone and the agent’s parent', () => {
    const user = { email: 'a@b.example', password: '123456', name: 'A', phone: '', country: '' };
    expect(issues(createUserSchema, { ...user, email: '', password: '' })).toEqual([['email', 'Email is Empty']]);
    expect(issues(createUserSchema, { ...user, password: '12345', name: '' })).toEqual([['password', 'Password must be minimum 6 symbols']]);
    expect(issues(adminCreateUserSchema, { ...user, phone: '+3749', country: 'AM', newUserType: 'agent' })).toEqual([['phone', 'Wrong phone number']]);
    expect(issues(adminCreateUserSchema, { ...user, newUserType: 'agent', parentUser: '' })).toEqual([['parentUser', 'Select the parent manager']]);
    // the API's schema leaves the parent to the service (a manager's own form sends none)
    expect(issues(createUserSchema, { ...user, newUserType: 'agent' })).toEqual([]);
    expect(createUserSchema.parse({ ...user, phone: '+374', country: 'AM' })).toMatchObject({ phone: '', country: 'AM' });
  });

  it('filter save: name, type, then at least one MC or All MC', () => {
    const filter = { name: 'Acme', type: 't1', mcList: ['mc1'] };
    expect(issues(filterSaveSchema, { ...filter, name: ' ', type: '-1', mcList: [] })).toEqual([['name', 'Name is empty']]);
    expect(issues(filterSaveSchema, { ...filter, type: '-1', mcList: [] })).toEqual([['type', 'Select the type']]);
    expect(issues(filterSaveSchema, { ...filter, mcList: [] })).toEqual([['mcList', 'Select minimum 1 mc or All MC']]);
    expect(issues(filterSaveSchema, { ...filter, mcList: [], allMC: true })).toEqual([]);
  });

  it('Add New MC: a lead names it, an agent picks one; both one line', () => {
    expect(issues(mcAddSchemaFor(false), { name: ' ', lines: [] })).toEqual([['name', 'Name is empty']]);
    expect(issues(mcAddSchemaFor(true), { name: 'ignored', lines: [] })).toEqual([['parentMc', 'Select MC']]);
    expect(issues(mcAddSchemaFor(true), { parentMc: 'p1', lines: [] })).toEqual([['lines', 'Select line for new MC']]);
    expect(issues(mcAddSchemaFor(false), { name: 'X', lines: [1, 2] })).toEqual([['lines', 'Select one line per MC']]);
  });
});
