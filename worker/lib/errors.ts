import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { fillText, type Message, type MessageParams, type ParamsArgs, readProblem } from './messages';

const STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  too_many_requests: 429,
  server_error: 500,
  unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorKind = keyof typeof STATUS;

/**
 * The one error type routes throw; `app.onError` answers `{message, code?, params?}` with its
 * status. `code` and `params` come from the area's table (lib/messages.ts); a message without a
 * code ('Unauthorized', zod's "Invalid input") answers its text alone.
 */
export class ApiError extends HTTPException {
  readonly code?: string;
  readonly params?: MessageParams;
  /** Fields answered beside `message` (a duplicate's `existingFilterId`). */
  readonly details?: Record<string, string>;
  constructor(status: ContentfulStatusCode, message: string, extra: { code?: string; params?: MessageParams; details?: Record<string, string> } = {}) {
    super(status, { message });
    this.code = extra.code;
    this.params = extra.params;
    this.details = extra.details;
  }
}

const coded = (entry: Message, params?: MessageParams, details?: Record<string, string>, status = entry.status as ContentfulStatusCode) =>
  new ApiError(status, fillText(entry.text, params), { code: entry.code, params, details });

/** An area's refusal with the values its text names: `apiError(LINES_MESSAGES.lineTaken, { line, name })`. */
export function apiError<M extends Message>(entry: M, ...[params]: ParamsArgs<M>): ApiError {
  return coded(entry, params as MessageParams | undefined);
}

/** A refusal with fields answered beside its message (a duplicate filter's `existingFilterId`). */
export function apiErrorWith<M extends Message>(details: Record<string, string>, entry: M, ...[params]: ParamsArgs<M>): ApiError {
  return coded(entry, params as MessageParams | undefined, details);
}

/**
 * A check's problem (lib/messages.ts `problem()`) as its entry's refusal; any other text is a 400
 * as it is. A request that fails its schema is bad input whatever the entry: `validate()` says 400.
 */
export function problemError(text: string, status?: 400): ApiError {
  const known = readProblem(text);
  return known ? coded(known.entry, known.params, undefined, status) : new ApiError(STATUS.bad_request, text);
}

/** A refusal without a code: 'Unauthorized' (the screens sign out) and the development calls' own. */
export const uncoded = (kind: ErrorKind, message: string) => new ApiError(STATUS[kind], message);

// Texts without a code: the shards' operator calls and the development calls (no screen translates them).
export const badRequest = (message: string) => uncoded('bad_request', message);
export const unauthorized = (message = 'Unauthorized') => uncoded('unauthorized', message);
export const notFound = (message: string) => uncoded('not_found', message);
export const conflict = (message: string, details?: Record<string, string>) => new ApiError(STATUS.conflict, message, { details });
