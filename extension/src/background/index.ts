/**
 * The service worker: the only part that talks to the server. It signs in (clientType 1), keeps
 * the session, syncs the MCs and filters (at sign-in, every 5 minutes, on Refresh and on the live
 * socket's signals, or every minute while that socket cannot connect), and sends
 * the board's actions through a queue in storage, in order, retrying while the server is away.
 * It never reads the load board: the content script sends it only what the user clicked.
 */

import { MAIL_CLIENTS } from '../shared/compose';
import type { Request, Response } from '../shared/protocol';
import { CONTACTS_ALARM, CONTACTS_MINUTES, RETRY_ALARM, SYNC_ALARM, SYNC_MINUTES } from './alarms';
import { onSessionEnded, Refused } from './api';
import { connect } from './desk';
import { sendHealth } from './health';
import { closeLive, liveState, syncAfter, updateLive } from './live';
import { act, flush } from './queue';
import { endedElsewhere, signIn, signOut } from './session';
import { apiUrlOf, defaultApiUrl, patch, read, update } from './store';
import { sync, syncContacts, syncing, syncingContacts } from './sync';
import { boardTabs, pushState, rememberTab, viewOf } from './view-state';

// the parts call each other through the desk only (no import circle between them)
connect({
  pushState,
  sync,
  syncContacts,
  syncing: () => syncing,
  syncingContacts: () => syncingContacts,
  flush,
  updateLive,
  closeLive,
  liveState: () => liveState,
  boardTabs,
});

// any call's 401 ends the session here, and tells the board tabs at once
onSessionEnded(endedElsewhere);

async function handle(request: Request, sender: chrome.runtime.MessageSender): Promise<Response> {
  switch (request.type) {
    case 'state':
      break;
    case 'boardHello':
      await rememberTab(sender.tab?.id);
      void updateLive();
      break;
    case 'signIn':
      try {
        await signIn(request.email, request.password);
      } catch (err) {
        return {
          ok: false,
          ...(err instanceof Refused ? err.refusal : { message: err instanceof Error ? err.message : 'Something went wrong' }),
          state: viewOf(await read()),
        };
      }
      break;
    case 'signOut':
      await signOut();
      break;
    case 'pickMc':
      await update((s) => ({ patch: (s.mcs ?? []).some((m) => m._id === request.mcId) ? { pickedMcId: request.mcId } : {}, result: undefined }));
      break;
    case 'refresh':
      // a sync already under way may have read the server before the change the user expects
      await syncAfter(() => syncing, sync);
      break;
    case 'flush':
      await flush();
      break;
    case 'action': {
      const outcome = await act(request.action);
      await pushState();
      return { ok: true, state: viewOf(await read()), outcome };
    }
    case 'health':
      await sendHealth(request.report);
      return { ok: true, state: viewOf(await read()) };
    case 'setApiUrl': {
      const url = request.apiUrl.trim().replace(/\/+$/, '');
      if (!/^https?:\/\/[^/\s]+$/i.test(url)) return { ok: false, message: 'Enter the server address, like https://app.freightdesk.example' };
      const s = await read();
      if (apiUrlOf(s) !== url) {
        // a session belongs to its server
        if (s.token) await signOut();
        await patch({ apiUrl: url === defaultApiUrl() ? undefined : url });
      }
      break;
    }
    case 'setMailClient':
      if (!(MAIL_CLIENTS as readonly string[]).includes(request.mailClient)) return { ok: false, message: 'Pick a mail client' };
      await patch({ mailClient: request.mailClient });
      break;
    default:
      return { ok: false, message: 'Unknown request' };
  }
  const state = viewOf(await read());
  if (request.type !== 'state' && request.type !== 'boardHello') await pushState();
  return { ok: true, state };
}

chrome.runtime.onMessage.addListener((request: Request, sender, sendResponse) => {
  // only the extension's own pages and its content script on the board talk to it
  if (sender.id !== chrome.runtime.id) return false;
  handle(request, sender).then(sendResponse, (err) => sendResponse({ ok: false, message: err instanceof Error ? err.message : 'Something went wrong' }));
  return true;
});

chrome.tabs.onRemoved.addListener(async (tabId) => {
  const tabs = await boardTabs();
  if (!tabs.includes(tabId)) return;
  await chrome.storage.session.set({ boardTabs: tabs.filter((t) => t !== tabId) });
  void updateLive();
});

chrome.alarms.onAlarm.addListener((alarm) => {
  // a service worker Chrome stopped meanwhile starts again here: the socket too
  if (alarm.name === SYNC_ALARM || alarm.name === CONTACTS_ALARM) void updateLive();
  if (alarm.name === SYNC_ALARM) void sync();
  if (alarm.name === RETRY_ALARM) void flush();
  if (alarm.name === CONTACTS_ALARM) void syncContacts();
});

async function start() {
  // the token stays in trusted contexts: the board's content script cannot read storage at all
  await chrome.storage.local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' }).catch(() => undefined);
  const s = await read();
  if (s.token && !(await chrome.alarms.get(SYNC_ALARM))) await chrome.alarms.create(SYNC_ALARM, { periodInMinutes: SYNC_MINUTES });
  if (s.token && !(await chrome.alarms.get(CONTACTS_ALARM))) await chrome.alarms.create(CONTACTS_ALARM, { periodInMinutes: CONTACTS_MINUTES });
  if ((s.queue ?? []).length && s.token) void flush();
  void updateLive();
}

chrome.runtime.onInstalled.addListener(() => void start());
chrome.runtime.onStartup.addListener(() => void start());
void start();
