import type { Context, Input } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../env';
import type { Message } from './messages';

/**
 * What a route answers, declared where the route is: the response schema of each success status
 * and the area messages it refuses with. The handler's body must fit the schema (a compile
 * error otherwise); the API reference and the response tests read both off the route
 * (lib/route-table.ts).
 */
export interface Answers {
  responses: Partial<Record<200 | 201, z.ZodType>>;
  errors: readonly Message[];
}

type Handler<P extends string, I extends Input, B> = (c: Context<AppEnv, P, I>) => B | Promise<B>;

const marked = <H>(handler: H, answers: Answers) => Object.assign(handler as H & object, { answers });

/** A JSON call answering 200 with `schema`. */
export function answer<S extends z.ZodType, B extends z.input<S>, P extends string, I extends Input>(
  schema: S,
  handler: Handler<P, I, B>,
  errors: readonly Message[] = [],
) {
  return marked(async (c: Context<AppEnv, P, I>) => c.json(await handler(c), 200), { responses: { 200: schema }, errors });
}

/** A JSON call that creates: 201 with `schema`. */
export function answerCreated<S extends z.ZodType, B extends z.input<S>, P extends string, I extends Input>(
  schema: S,
  handler: Handler<P, I, B>,
  errors: readonly Message[] = [],
) {
  return marked(async (c: Context<AppEnv, P, I>) => c.json(await handler(c), 201), { responses: { 201: schema }, errors });
}

/** An idempotent write: 201 with `schema` when it stored something new, 200 with the same when it was there. */
export function answerStored<S extends z.ZodType, B extends z.input<S>, P extends string, I extends Input>(
  schema: S,
  handler: Handler<P, I, { body: B; created: boolean }>,
  errors: readonly Message[] = [],
) {
  return marked(
    async (c: Context<AppEnv, P, I>) => {
      const { body, created } = await handler(c);
      return created ? c.json(body, 201) : c.json(body, 200);
    },
    { responses: { 200: schema, 201: schema }, errors },
  );
}

/** A short confirmation the screens show as a toast. */
export const messageSchema = z.strictObject({ message: z.string(), code: z.string().optional() });
/** A confirmation with fields beside it. */
export const withMessage = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ message: z.string(), code: z.string().optional(), ...shape });
export const okSchema = z.strictObject({ ok: z.literal(true) });
