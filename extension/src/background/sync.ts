/** Sync: the MCs, the filters, the subscription and the team's recent contacts (the markers). */
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import type { McChoice } from '../shared/protocol';
import { type ExtensionApi, SignInAgain } from './api';
import { desk } from './desk';
import { apiFor, BOARD_ROLES, patch, read, type Stored, update } from './store';

const toChoice = (m: {
  _id: string;
  name: string;
  lines: number[];
  parentMc: { _id: string } | null;
  emailSubject: string;
  emailContent: string;
}): McChoice => ({
  _id: m._id,
  name: m.name,
  line: m.lines[0] ?? null,
  teamMcId: m.parentMc?._id ?? m._id,
  emailSubject: m.emailSubject,
  emailContent: m.emailContent,
});

/** A failed sync shows its problem; a 401 has ended the session already (api.ts). */
async function failed(err: unknown) {
  if (err instanceof SignInAgain) return;
  await patch({ problem: err instanceof Error ? err.message : 'Something went wrong' });
}

/**
 * The filters in force, or 'unchanged' when the stored list is still current: the stored list's
 * ETag goes as If-None-Match and the server answers 304 after one indexed read (every sync, every
 * 5 minutes per agent), instead of the whole list (hundreds of KB for a big team).
 */
async function filtersSince(api: ExtensionApi, s: Stored): Promise<'unchanged' | { filters: MinifiedFilterDto[]; etag: string | null }> {
  const etag = s.filters?.length && s.filtersEtag ? s.filtersEtag : null;
  const res = await api.broker.minified.$get(undefined, etag ? { headers: { 'if-none-match': etag } } : undefined);
  if ((res.status as number) === 304) return 'unchanged';
  return { filters: await res.json(), etag: res.headers.get('etag') };
}

export let syncing: Promise<void> | null = null;

/** Syncs the MCs the user works for (Show in DAT on), the filters in force and the subscription. */
export function sync(): Promise<void> {
  syncing ??= (async () => {
    const s = await read();
    if (!s.token || !s.user) return;
    const api = apiFor(s);
    try {
      // the user's language too: a change in Profile reaches the board at the next sync (decision 0025)
      const [subscription, me] = await Promise.all([
        api.subscription.status.$get().then((r) => r.json()),
        api.user[':id']
          .$get({ param: { id: s.user.userId } })
          .then((r) => r.json())
          // the language is not worth failing the sync for: the stored one stays
          .catch((err: unknown) => {
            if (err instanceof SignInAgain) throw err;
            return null;
          }),
      ]);
      await update((cur) => ({
        patch: me && cur.user?.userId === s.user?.userId ? { subscription, language: me.language } : { subscription },
        result: undefined,
      }));
      if (!BOARD_ROLES.has(s.user.userType)) {
        await patch({ problem: 'The load-board extension is for agents and managers', mcs: [], filters: [], filtersEtag: null, phones: null });
        return;
      }
      const [settings, listed, team] = await Promise.all([
        api.mcSettings.index.$get().then((r) => r.json()),
        filtersSince(api, s),
        api.team.settings.$get().then((r) => r.json()),
      ]);
      const phones = { dialer: team.dialer, dialerTemplate: team.dialerTemplate, lines: team.lines };
      const mcs = settings.filter((m) => m.isVisible).map(toChoice);
      await update((cur) => {
        const picked = cur.pickedMcId && mcs.some((m) => m._id === cur.pickedMcId) ? cur.pickedMcId : mcs.length === 1 ? mcs[0]!._id : null;
        let filters: Partial<Stored>;
        if (listed !== 'unchanged') filters = { filters: listed.filters, filtersEtag: listed.etag, filtersSyncedAt: Date.now() };
        // 304: the stored list is still the one in force
        else if (cur.filtersEtag === s.filtersEtag) filters = { filtersSyncedAt: Date.now() };
        // the stored list changed meanwhile (another sign-in): the next sync downloads the list
        else filters = { filtersEtag: null };
        return { patch: { mcs, ...filters, phones, pickedMcId: picked, problem: null }, result: undefined };
      });
    } catch (err) {
      await failed(err);
    }
  })().finally(() => {
    syncing = null;
  });
  return syncing.then(async () => {
    await syncContacts();
    await desk.pushState();
    // the server answered: whatever waits may go now
    if ((await read()).token) void desk.flush();
  });
}

// the team's recent contacts (the markers)

export let syncingContacts: Promise<void> | null = null;

/**
 * Syncs the team's contacts of the markers' window: the stored ETag goes as If-None-Match, and
 * the server answers 304 after reading its per-hour counts while nothing was logged.
 */
export function syncContacts(): Promise<void> {
  syncingContacts ??= (async () => {
    const s = await read();
    if (!s.token || !s.user || !BOARD_ROLES.has(s.user.userType)) return;
    const etag = s.teamContacts && s.teamContactsEtag ? s.teamContactsEtag : null;
    try {
      const res = await apiFor(s).team.contacts.$get(undefined, etag ? { headers: { 'if-none-match': etag } } : undefined);
      if ((res.status as number) === 304) return;
      const teamContacts = await res.json();
      await update((cur) => ({
        // another sign-in meanwhile: not this user's team
        patch: cur.user?.userId === s.user?.userId ? { teamContacts, teamContactsEtag: res.headers.get('etag') } : {},
        result: undefined,
      }));
      await desk.pushState();
    } catch {
      // a 401 has ended the session already (api.ts); anything else waits for the next minute
    }
  })().finally(() => {
    syncingContacts = null;
  });
  return syncingContacts;
}
