import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type * as z from 'zod';
import { badRequest } from './errors';

/**
 * zValidator with our error shape: the first issue's message becomes `{message}` with 400.
 * Schemas carry the spec's messages, so a validation failure reads like the screen's own.
 * The middleware carries its target and schema, so the API reference is generated from the
 * routes (worker/dev/api-reference.ts).
 */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) => {
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue?.path?.length ? ` (${issue.path.join('.')})` : '';
      const message = issue?.message && !issue.message.startsWith('Invalid input') ? issue.message : `Invalid input${where}`;
      throw badRequest(message);
    }
  });
  // the declared type stays zValidator's own, so Hono's route and client types infer as before
  return Object.assign(middleware, { input: { target, schema } }) as typeof middleware;
};
