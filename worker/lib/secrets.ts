import { type Bindings, isDevelopment } from '../env';
import { ApiError } from './errors';

const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-in-production-0123456789';
const DEV_PEPPER = 'dev-only-password-pepper';

/** Secrets with development fallbacks; production refuses to run without them. */
export function secrets(env: Bindings) {
  const dev = isDevelopment(env);
  const jwt = env.JWT_SECRET || (dev ? DEV_JWT_SECRET : '');
  const pepper = env.PASSWORD_PEPPER || env.JWT_SECRET || (dev ? DEV_PEPPER : '');
  if (!jwt || !pepper) throw new ApiError('server_error', 'The server is not configured');
  return { jwt, pepper };
}
