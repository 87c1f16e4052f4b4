import * as z from 'zod';
import { app } from '../app';
import { isStaff, type Role, RULES, type RuleName } from '../lib/permissions';
import { type RouteEntry, routeTable } from '../lib/route-table';
import { apiPages } from './api-pages';
import { PAGE_OF_CALL, PAGE_OF_SEGMENT } from './reference-pages';

/** `npm run docs:api` writes docs/api/ from it; a test fails when the committed files are stale. */

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)\??/g, '{$1}');
/** The first segment after /api: the area's name in the URL (user, broker, mcSettings, …). */
const tagOf = (path: string) => path.split('/')[2] ?? 'api';
/** The page of docs/api/ that documents a call (its OpenAPI tag). */
const pageOf = (route: RouteEntry) => PAGE_OF_CALL[`${route.method} ${route.path}`] ?? PAGE_OF_SEGMENT[tagOf(route.path)] ?? tagOf(route.path);

const schemaOf = (schema: z.ZodType, io: 'input' | 'output' = 'input') => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
};

/** Who may call a route, in words: for the access table and the OpenAPI `x-access`. */
export function describeRule(name: RuleName): { rule: RuleName; who: string; activeSubscription: string } {
  const rule = RULES[name];
  if (rule === 'public') return { rule: name, who: 'anyone, no token', activeSubscription: 'no' };
  if (rule === 'signedIn') return { rule: name, who: 'any signed-in user', activeSubscription: 'no' };
  if (rule === 'development') return { rule: name, who: 'anyone, development only (404 in production)', activeSubscription: 'no' };
  const roles = rule.roles as readonly Role[];
  const paying = rule.needsSubscription ? roles.filter((r) => !isStaff(r)) : [];
  return { rule: name, who: roles.join(', '), activeSubscription: paying.length ? paying.join(', ') : 'no' };
}

/** Where a call's queries run (docs/decisions/0015-read-replicas.md): a read-only call on a replica, everything else on the primary. */
const readsFrom = (route: RouteEntry) => (route.readOnly ? 'replica' : 'primary');

const ERROR = { $ref: '#/components/responses/Error' };
const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };
const ERROR_ANSWER = { description: 'An error: `{message, code?, params?}`' };
type ErrorAnswer = {
  description: string;
  content: { 'application/json': { schema: unknown; examples: Record<string, { summary?: string; value: { message: string; code?: string } }> } };
};

export function openApiDocument(routes: readonly RouteEntry[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes.filter((r) => r.path.startsWith('/api/'))) {
    const name = route.rules[0]!;
    const access = describeRule(name);
    const open = RULES[name] === 'public' || RULES[name] === 'development';
    const body = route.inputs.find((i) => i.target === 'json' || i.target === 'form');
    const parameters = route.inputs
      .filter((i) => i.target === 'param' || i.target === 'query')
      .flatMap((i) => {
        const json = schemaOf(i.schema) as { properties?: Record<string, unknown>; required?: string[] };
        return Object.entries(json.properties ?? {}).map(([key, schema]) => ({
          name: key,
          in: i.target === 'param' ? 'path' : 'query',
          required: i.target === 'param' || (json.required ?? []).includes(key),
          schema,
        }));
      });
    const declared = Object.entries(route.responses ?? { 200: undefined });
    const responses: Record<string, unknown> = Object.fromEntries(
      declared.map(([status, schema]) => [
        status,
        schema
          ? { description: status === '201' ? 'Created' : 'OK', content: { 'application/json': { schema: schemaOf(schema, 'output') } } }
          : { description: 'OK' },
      ]),
    );
    if (body || parameters.length) responses['400'] = ERROR;
    if (!open) Object.assign(responses, { '401': ERROR, '403': ERROR });
    // the call's own messages: each an example of the error answer of its status
    const errors = route.errors.map((e) => [e.status, e.text, e.when, e.code] as const);
    for (const [status, message, when, code] of errors) {
      const answer = (
        responses[status] === ERROR || !responses[status]
          ? { ...ERROR_ANSWER, content: { 'application/json': { schema: ERROR_SCHEMA, examples: {} } } }
          : responses[status]
      ) as ErrorAnswer;
      const examples = answer.content['application/json'].examples;
      examples[`e${Object.keys(examples).length + 1}`] = { ...(when ? { summary: when } : {}), value: { message, ...(code ? { code } : {}) } };
      responses[status] = answer;
    }
    paths[openApiPath(route.path)] ??= {};
    paths[openApiPath(route.path)]![route.method.toLowerCase()] = {
      tags: [pageOf(route)],
      'x-access': access,
      'x-reads': readsFrom(route),
      security: open ? [] : [{ bearer: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(body
        ? {
            requestBody: {
              required: true,
              content: { [body.target === 'form' ? 'application/x-www-form-urlencoded' : 'application/json']: { schema: schemaOf(body.schema) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'FreightDesk API',
      version: '1',
      description:
        "Generated from the worker's routes and zod schemas (request schemas from the routes, response schemas from each route's answers()) by `npm run docs:api`; the per-area pages docs/api/*.md are generated from this document.",
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            message: { type: 'string', description: "The English text (the spec's words)." },
            code: {
              type: 'string',
              description:
                "The message's stable code, for the screens to translate (`lines.lineTaken`; docs/decisions/0023-languages.md). Absent for a message without one.",
            },
            params: {
              type: 'object',
              additionalProperties: { type: ['string', 'number'] },
              description: 'The values the message names, by placeholder (`{"line": 3, "name": "Acme"}`), when it names any.',
            },
          },
          required: ['message'],
        },
      },
      responses: {
        Error: {
          description: 'An error: 400 bad input, 401 no or bad token, 403 not allowed, 404 not found, 409 conflict, 413 too large, 429 too many requests',
          content: { 'application/json': { schema: ERROR_SCHEMA } },
        },
      },
    },
    paths,
  };
}

export function accessMarkdown(routes: readonly RouteEntry[]): string {
  const lines = [
    '# Who may call what',
    '',
    'Generated by `npm run docs:api` from the rule each route names with `allow()` (the table in',
    '`worker/lib/permissions.ts`); a test fails when this file is stale. A role outside "who" answers',
    '**403** `You are not allowed to do this`; a role that needs an active subscription and has none',
    'answers **403** `Your subscription is not active` (admin and marketing always have one); no or a',
    'bad token answers **401** `Unauthorized`. Object rules (whose user, whose filter) are on top, in',
    "each area's reference. Where the spec writes a call with a trailing slash (`/api/mcSettings/add/`),",
    'both spellings answer. Request bodies and parameters: [openapi.json](openapi.json).',
    '',
    '"reads" says where the call\'s queries run (docs/decisions/0015-read-replicas.md): `replica` is a',
    'read-only call served by a D1 read replica at least as new as the `x-d1-bookmark` the client',
    'sent; `primary` is every call that writes, or reads what it must see at once. The token check of',
    'every signed-in call reads the primary.',
  ];
  const byTag = new Map<string, RouteEntry[]>();
  for (const route of routes.filter((r) => r.path.startsWith('/api/'))) byTag.set(tagOf(route.path), [...(byTag.get(tagOf(route.path)) ?? []), route]);
  for (const [tag, group] of byTag) {
    lines.push('', `## /api/${tag}`, '', '| call | rule | who | active subscription needed | reads |', '| --- | --- | --- | --- | --- |');
    for (const route of group) {
      const a = describeRule(route.rules[0]!);
      lines.push(`| \`${route.method} ${openApiPath(route.path)}\` | \`${a.rule}\` | ${a.who} | ${a.activeSubscription} | ${readsFrom(route)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function apiReference(prose: Record<string, string> = {}) {
  const routes = routeTable(app.routes);
  const openapi = openApiDocument(routes);
  return { openapi, access: accessMarkdown(routes), pages: apiPages(openapi, prose) };
}
