import { parseResponse } from 'hono/client';
import type { Language } from '../../../worker/lib/languages';
import { api } from '../../lib/api-client';
import type { Args } from '../../lib/use-api';

const auth = api.auth;

/** The web app logs in as the browser client (clientType 0), with this browser's device token for the e-mail when it has one. */
export const login = (email: string, password: string, deviceToken?: string, language?: Language) =>
  parseResponse(auth.login.$post({ json: { email, password, clientType: 0, ...(deviceToken ? { deviceToken } : {}), ...(language ? { language } : {}) } }));
export const register = (json: Args<typeof auth.register.$post>['json']) => parseResponse(auth.register.$post({ json }));
export const sendPasswordHash = (email: string) => parseResponse(auth.sendPasswordHash.$post({ json: { email } }));
export const resetPassword = (hash: string, newPassword: string) =>
  parseResponse(auth.passwordHashVerify[':hash'].$post({ param: { hash: encodeURIComponent(hash) }, json: { newPassword } }));
export const verifyEmail = (hash: string) => parseResponse(api.emailVerify.verify[':hash'].$get({ param: { hash: encodeURIComponent(hash) } }));
