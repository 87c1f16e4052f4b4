import type { Bindings } from '../env';
import { GENERAL_MESSAGES } from './common-messages';
import { apiError } from './errors';

/** The token key and the password pepper (which falls back to the token key); the server refuses to work without them. */
export function secrets(env: Bindings) {
  const jwt = env.JWT_SECRET ?? '';
  const pepper = env.PASSWORD_PEPPER || jwt;
  if (!jwt) throw apiError(GENERAL_MESSAGES.notConfigured);
  return { jwt, pepper };
}
