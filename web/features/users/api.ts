import { parseResponse } from 'hono/client';
import useSWR from 'swr';
import { api } from '../../lib/api-client';
import { type Args, type Data, keyOf, useGet } from '../../lib/use-api';

export type UserDto = Data<typeof api.user.index.$get>[number];
export type UserType = UserDto['userType'];
export type NewUser = Args<typeof api.user.register.$post>['json'];

const user = api.user;
/** A user id as a path parameter (ids can come from the page's URL). */
const byId = (id: string) => ({ param: { id: encodeURIComponent(id) } });

export const USERS_KEY = keyOf(user.index);
export const useUsers = (enabled = true) => useGet(enabled ? user.index : null);
export type UsersPageQuery = Args<typeof user.page.$get>['query'];
export type UsersPage = Data<typeof user.page.$get>;
/**
 * A page of the Users List (GET /api/user/page). The last page stays shown while the next comes
 * (`keepPreviousData`); `key` tells which request the data answers, so a failed page is never
 * taken for the one before it.
 */
export const useUsersPage = (query: UsersPageQuery | null) => {
  const key = query ? keyOf(user.page, { query }) : null;
  const read = useSWR(key, async (k: string) => ({ key: k, page: await parseResponse(user.page.$get({ query: query! })) }), { keepPreviousData: true });
  return { ...read, key };
};
export const useUser = (id: string | undefined) => useGet(id ? user[':id'] : null, byId(id ?? ''));
export const useChildUsers = (id: string) => useGet(user.childUsers[':id'], byId(id));
/** The admin's pickers: every manager (for an agent's parent) and every director (for a manager's). */
export const useManagers = (enabled: boolean) => useGet(enabled ? user.directorChildManagers : null);
export const useDirectors = (enabled: boolean) => useGet(enabled ? user.directorsList : null);

export const createUser = (json: NewUser) => parseResponse(user.register.$post({ json }));
/** `eraseHistory`: the admin erases a deleted manager's team's Contact History for good (decision 0185). */
export const deleteUser = (userId: string, eraseHistory = false) =>
  parseResponse(user.index.$delete({ json: eraseHistory ? { userId, eraseHistory } : { userId } }));
export const resendVerification = (id: string) => parseResponse(user.resendEmailVerification[':id'].$put(byId(id)));
export const updateName = (id: string, newName: string) => parseResponse(user.update.name[':id'].$put({ ...byId(id), json: { newName } }));
/** `currentPassword` only for one's own e-mail or password (re-authentication); staff changing another user send none. */
export const updateEmail = (id: string, newEmail: string, currentPassword?: string) =>
  parseResponse(user.update.email[':id'].$put({ ...byId(id), json: { newEmail, ...(currentPassword === undefined ? {} : { currentPassword }) } }));
export const updatePassword = (id: string, newPassword: string, currentPassword?: string) =>
  parseResponse(user.update.password[':id'].$put({ ...byId(id), json: { newPassword, ...(currentPassword === undefined ? {} : { currentPassword }) } }));
export const updateReminders = (id: string, remindersEnabled: boolean) =>
  parseResponse(user.update.reminders[':id'].$put({ ...byId(id), json: { remindersEnabled } }));
export const updateLanguage = (id: string, language: UserDto['language']) =>
  parseResponse(user.update.language[':id'].$put({ ...byId(id), json: { language } }));
export const updateType = (id: string, json: Args<(typeof user.update.userType)[':id']['$put']>['json']) =>
  parseResponse(user.update.userType[':id'].$put({ ...byId(id), json }));
export const setTrial = (id: string, isActive: boolean) => parseResponse(user.update.trialPeriodState[':id'].$put({ ...byId(id), json: { isActive } }));
export const setTrialEndDate = (id: string, newDate: string) => parseResponse(user.update.trialPeriodEndDate[':id'].$put({ ...byId(id), json: { newDate } }));
export const updateParent = (id: string, newParent: string | null) => parseResponse(user.update.parent[':id'].$put({ ...byId(id), json: { newParent } }));

// Sessions (Profile's Active sessions): the caller's own, from the auth area.
export type SessionDto = Data<typeof api.auth.sessions.$get>[number];
export const SESSIONS_KEY = keyOf(api.auth.sessions);
export const useSessions = (enabled: boolean) => useGet(enabled ? api.auth.sessions : null);
export const signOutSession = (id: string) => parseResponse(api.auth.sessions[':id'].$delete({ param: { id: encodeURIComponent(id) } }));
