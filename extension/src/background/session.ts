/** The session: sign-in, sign-out, and a session ended elsewhere. */
import { CLIENT_TYPES } from '../../../worker/auth/sessions.schema';
import { CONTACTS_ALARM, CONTACTS_MINUTES, RETRY_ALARM, SYNC_ALARM, SYNC_MINUTES } from './alarms';
import { extensionApi } from './api';
import { desk } from './desk';
import { apiFor, apiUrlOf, patch, read, type Stored, update } from './store';

/**
 * The session of `token` ended elsewhere (any call's 401, or the live socket closed for it): calls
 * stop, and every board tab and the popup are told at once (flags, markers and "Working for" go,
 * the bar says "Sign in again"). The queue stays for when the user signs in again. A 401 of an
 * older session's call, answered after the user signed in again, ends nothing.
 */
export async function endedElsewhere(token: string) {
  const ended = await update((s) =>
    s.token && s.token === token ? { patch: { token: null, signInAgain: true, problem: null }, result: true } : { patch: {}, result: false },
  );
  if (!ended) return;
  desk.closeLive();
  await chrome.alarms.clear(RETRY_ALARM);
  await desk.pushState();
}

/** A signed-in user's own data, emptied: signing out, or signing in as someone else, leaves none of it behind. */
const clearedUserData = (): Partial<Stored> => ({
  mcs: [],
  pickedMcId: null,
  filters: [],
  filtersEtag: null,
  filtersSyncedAt: null,
  phones: null,
  teamContacts: null,
  teamContactsEtag: null,
  subscription: null,
  refused: [],
});

export async function signIn(email: string, password: string): Promise<void> {
  const s = await read();
  const key = email.trim().toLowerCase();
  const deviceToken = s.deviceTokens?.[key];
  const api = extensionApi(apiUrlOf(s), null);
  const res = await api.auth.login.$post({ json: { email, password, clientType: CLIENT_TYPES.extension, ...(deviceToken ? { deviceToken } : {}) } });
  const login = await res.json();
  const sameUser = s.user?.userId === login.userId;
  await patch({
    token: login.accessToken,
    user: { userId: login.userId, name: login.name, email: login.email, userType: login.userType },
    language: login.language,
    signInAgain: false,
    problem: null,
    deviceTokens: { ...s.deviceTokens, [key]: login.deviceToken },
    // another user's MCs and filters are not this one's
    ...(sameUser ? {} : clearedUserData()),
  });
  await chrome.alarms.create(SYNC_ALARM, { periodInMinutes: SYNC_MINUTES });
  await chrome.alarms.create(CONTACTS_ALARM, { periodInMinutes: CONTACTS_MINUTES });
  await desk.sync();
  void desk.updateLive();
}

export async function signOut() {
  desk.closeLive();
  const s = await read();
  if (s.token) {
    // this session only: the web app stays signed in (and an unreachable server ends it by expiry)
    await apiFor(s)
      .auth.logout.$post()
      .catch(() => undefined);
  }
  await patch({ token: null, user: null, language: null, signInAgain: false, problem: null, ...clearedUserData() });
  await chrome.alarms.clear(SYNC_ALARM);
  await chrome.alarms.clear(CONTACTS_ALARM);
  await chrome.alarms.clear(RETRY_ALARM);
}
