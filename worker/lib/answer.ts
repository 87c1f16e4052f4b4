import type { TypedResponse } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { JSONParsed } from 'hono/utils/types';
import * as z from 'zod';
import type { Message } from './messages';

type Schemas = { 200?: z.ZodType; 201?: z.ZodType };
type Success = keyof Schemas;
type BodyOf<R extends Schemas, S extends Success> = z.input<NonNullable<R[S]>>;
type Answered<B, S extends Success> = Response & TypedResponse<JSONParsed<B>, S, 'json'>;

/** `c.var.answer(body)` (200), or `c.var.answer(body, 201)`: the body must fit the status's schema. */
interface Answer<R extends Schemas> {
  <B extends BodyOf<R, 200>>(body: 200 extends keyof R ? B : never): Answered<B, 200>;
  <S extends keyof R & Success, B extends BodyOf<R, S>>(body: B, status: S): Answered<B, S>;
}

/** What a route declares it answers: the schema of each success status and the area messages it refuses with. */
export interface Answers {
  /** None for a route whose answer is no JSON (a CSV, a redirect). */
  responses?: Schemas;
  errors: readonly Message[];
}

/** The body must fit the schema (a compile error otherwise); the API reference reads both off the route. */
export function answers<S extends z.ZodType>(schema: S, errors?: readonly Message[]): ReturnType<typeof declare<{ 200: S }>>;
export function answers<R extends Schemas>(schemas: R, errors?: readonly Message[]): ReturnType<typeof declare<R>>;
export function answers(schemas: z.ZodType | Schemas, errors: readonly Message[] = []) {
  return declare(schemas instanceof z.ZodType ? { 200: schemas } : schemas, errors);
}

function declare<R extends Schemas>(responses: R, errors: readonly Message[]) {
  const middleware = createMiddleware<{ Variables: { answer: Answer<R> } }>(async (c, next) => {
    c.set('answer', ((body: object, status: Success = 200) => c.json(body, status)) as Answer<R>);
    await next();
  });
  return Object.assign(middleware, { answers: { responses, errors } satisfies Answers });
}

/** A refusal as one route answers it: the entry, with why this call answers it (for the API reference). */
export const because = <M extends Message>(entry: M, when: string): M => ({ ...entry, when });

/** The refusals of a route that answers no JSON (a CSV, a redirect), for the API reference. */
export function refuses(errors: readonly Message[]) {
  const middleware = createMiddleware(async (_c, next) => {
    await next();
  });
  return Object.assign(middleware, { answers: { errors } satisfies Answers });
}

export const messageSchema = z.strictObject({ message: z.string(), code: z.string().optional() });
export const withMessage = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ message: z.string(), code: z.string().optional(), ...shape });
export const okSchema = z.strictObject({ ok: z.literal(true) });
