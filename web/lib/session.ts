import { useSyncExternalStore } from 'react';
import type { Role } from '../../worker/lib/permissions';
import { normalizeEmail } from '../../worker/lib/text';

/** The session as stored under localStorage key `userData` (spec: Entities). */
export interface Session {
  token: string;
  userId: string;
  userType: Role;
  userName: string;
  userEmail: string;
  isSubscriptionActive: boolean;
}

const KEY = 'userData';
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: Session | null } = { raw: null, value: null };

export function getSession(): Session | null {
  const raw = localStorage.getItem(KEY);
  if (raw !== cached.raw) {
    let value: Session | null = null;
    try {
      value = raw ? (JSON.parse(raw) as Session) : null;
    } catch {
      value = null;
    }
    cached = { raw, value };
  }
  return cached.value;
}

const emit = () => {
  for (const listener of listeners) listener();
};

export function setSession(session: Session | null) {
  if (session) localStorage.setItem(KEY, JSON.stringify(session));
  else localStorage.removeItem(KEY);
  emit();
}

export function updateSession(patch: Partial<Session>) {
  const current = getSession();
  if (current) setSession({ ...current, ...patch });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export const useSession = () => useSyncExternalStore(subscribe, getSession, () => null);

/**
 * Device tokens (docs/decisions/0034-device-tokens.md): a good login answers one, and later logins from this browser
 * send it, so failed logins from elsewhere never lock this browser out. Kept per e-mail beside
 * the session (not in `userData`, whose shape the spec fixes), and kept on logout: they name the
 * device, not a session. A shared office PC keeps one for each of its last few users.
 */
const DEVICE_KEY = 'deviceTokens';
const MAX_DEVICE_TOKENS = 10;

function readDeviceTokens(): Record<string, string> {
  try {
    const value = JSON.parse(localStorage.getItem(DEVICE_KEY) ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export const getDeviceToken = (email: string): string | undefined => readDeviceTokens()[normalizeEmail(email)];

export function saveDeviceToken(email: string, token: string) {
  const tokens = readDeviceTokens();
  const key = normalizeEmail(email);
  delete tokens[key];
  tokens[key] = token;
  const kept = Object.entries(tokens).slice(-MAX_DEVICE_TOKENS);
  localStorage.setItem(DEVICE_KEY, JSON.stringify(Object.fromEntries(kept)));
}
