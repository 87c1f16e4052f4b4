import { zValidator } from '@hono/zod-validator';
import type { MiddlewareHandler, ValidationTargets } from 'hono';
import { createMiddleware } from 'hono/factory';
import type * as z from 'zod';
import type { AppEnv, Caller } from '../env';
import { problemError } from './errors';

/** Our error shape: the first issue's problem (an area's code and values) answers 400 with its entry; zod's own as it is. */
const firstIssue = (result: { success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } }) => {
  if (result.success) return;
  const issue = result.error?.issues[0];
  const where = issue?.path?.length ? ` (${issue.path.join('.')})` : '';
  const message = issue?.message && !issue.message.startsWith('Invalid input') ? issue.message : `Invalid input${where}`;
  throw problemError(message, 400);
};

/**
 * Validates a request part with a zod schema (zValidator with our error shape). Schemas carry the
 * spec's messages and checks in order, so a failure reads like the screen's own and services get
 * checked input. `byCaller` picks a stricter schema of the same shape by the signed-in caller
 * (Add New MC: a lead names the MC, an agent picks one). The middleware carries its target and
 * schema, so the API reference is generated from the routes (worker/dev/api-reference.ts).
 */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
  byCaller?: (caller: Caller) => z.ZodType<z.output<T>, z.input<T>>,
) => {
  const middleware = zValidator(target, schema, firstIssue);
  const chosen =
    byCaller &&
    createMiddleware<AppEnv>(async (c, next) => {
      const picked = zValidator(target, byCaller(c.var.caller), firstIssue) as unknown as MiddlewareHandler<AppEnv>;
      return picked(c, next);
    });
  // the declared type stays zValidator's own, so Hono's route and client types infer as before
  return Object.assign(chosen ?? middleware, { input: { target, schema } }) as unknown as typeof middleware;
};
