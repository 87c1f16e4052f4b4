import { useSyncExternalStore } from 'react';
import type { Role } from '../../worker/lib/permissions';

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
