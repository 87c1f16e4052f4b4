import { describe, expect, it } from 'vitest';
import access from '../../docs/api/access.md?raw';
import openapi from '../../docs/api/openapi.json';
import { apiReference } from './api-reference';

describe('the generated API reference (npm run docs:api)', () => {
  const generated = apiReference();

  it('docs/api/openapi.json is what the routes and schemas say now', () => {
    expect(openapi, 'stale: run npm run docs:api').toEqual(generated.openapi);
  });

  it("docs/api/access.md is what the routes' rules say now", () => {
    expect(access, 'stale: run npm run docs:api').toBe(generated.access);
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
