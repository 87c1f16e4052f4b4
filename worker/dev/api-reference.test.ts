import { describe, expect, it } from 'vitest';
import access from '../../docs/api/access.md?raw';
import openapi from '../../docs/api/openapi.json';
import { apiReference } from './api-reference';

/** By file name: the hand-written prose of each page and the committed pages. */
const byName = (files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([file, text]) => [file.split('/').pop()!.replace(/\.md$/, ''), text]));
const prose = byName(import.meta.glob<string>('../../docs/api/prose/*.md', { query: '?raw', import: 'default', eager: true }));
const committed = byName(import.meta.glob<string>(['../../docs/api/*.md', '!../../docs/api/access.md'], { query: '?raw', import: 'default', eager: true }));

describe('the generated API reference (npm run docs:api)', () => {
  const generated = apiReference(prose);

  it('docs/api/openapi.json is what the routes and schemas say now', () => {
    expect(openapi, 'stale: run npm run docs:api').toEqual(generated.openapi);
  });

  it("docs/api/access.md is what the routes' rules say now", () => {
    expect(access, 'stale: run npm run docs:api').toBe(generated.access);
  });

  it('each docs/api/<area>.md is what the OpenAPI document and the prose say now, and no page is left over', () => {
    expect(Object.keys(committed).sort(), 'stale: run npm run docs:api (and remove a page no call is on)').toEqual(Object.keys(generated.pages).sort());
    for (const [page, text] of Object.entries(generated.pages)) expect(committed[page], `docs/api/${page}.md is stale: run npm run docs:api`).toBe(text);
  });

  it("describes each answer from its response schema, and each call's own errors", () => {
    const list = generated.openapi.paths['/api/link']?.get as {
      responses: Record<string, { content?: Record<string, { schema: { items: { properties: object } } }> }>;
    };
    expect(Object.keys(list.responses['200']!.content!['application/json']!.schema.items.properties)).toEqual(
      expect.arrayContaining(['_id', 'from', 'to', 'clicks', 'status']),
    );
    const create = generated.openapi.paths['/api/link/generate']?.post as {
      responses: Record<string, { content: Record<string, { examples: Record<string, { value: unknown }> }> }>;
    };
    expect(Object.values(create.responses['409']!.content['application/json']!.examples).map((e) => e.value)).toEqual([
      { message: 'This alias is already taken', code: 'link.aliasTaken' },
    ]);
    expect(generated.pages.links).toContain('### `POST /api/link/generate`');
    expect(generated.pages.links).toContain('| 409 | `This alias is already taken` | `link.aliasTaken` |');
  });

  it('describes every call with its body schema and its rule', () => {
    const login = generated.openapi.paths['/api/auth/login']?.post as {
      security: unknown[];
      requestBody: { content: Record<string, { schema: { properties: object } }> };
    };
    expect(login.security).toEqual([]);
    expect(Object.keys(login.requestBody.content['application/json']!.schema.properties)).toEqual(expect.arrayContaining(['email', 'password']));
    const list = generated.openapi.paths['/api/user']?.get as { 'x-access': unknown };
    expect(list['x-access']).toEqual({ rule: 'teamLists', who: 'admin, director, manager', activeSubscription: 'director, manager' });
    expect(generated.access).toContain('| `PUT /api/user/update/filterOverride` | `filterTypesEdit` | admin, manager | manager |');
  });
});
