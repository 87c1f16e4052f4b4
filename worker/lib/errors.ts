import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

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

export type ErrorCode = keyof typeof STATUS;

/** The one error type routes throw; `app.onError` turns it into `{message}` with its status. */
export class ApiError extends HTTPException {
  readonly code: ErrorCode;
  /** Fields answered beside `message` (a duplicate's `existingFilterId`). */
  readonly details?: Record<string, string>;
  constructor(code: ErrorCode, message: string, details?: Record<string, string>) {
    super(STATUS[code], { message });
    this.code = code;
    this.details = details;
  }
}

export const badRequest = (message: string) => new ApiError('bad_request', message);
export const unauthorized = (message = 'Unauthorized') => new ApiError('unauthorized', message);
export const forbidden = (message = 'You are not allowed to do this') => new ApiError('forbidden', message);
export const notFound = (message = 'Not found') => new ApiError('not_found', message);
export const conflict = (message: string, details?: Record<string, string>) => new ApiError('conflict', message, details);
export const tooManyRequests = (message = 'Too many requests, please try again later') => new ApiError('too_many_requests', message);
