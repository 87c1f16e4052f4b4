/** Generated from the OpenAPI document; docs/api/prose/<area>.md adds the hand-written part per call. */

type Json = Record<string, unknown>;
interface Operation {
  tags: string[];
  'x-access': { rule: string; who: string; activeSubscription: string };
  'x-reads': string;
  parameters?: { name: string; in: string; required: boolean; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

const code = (text: string) => `\`${text.replaceAll('`', "'")}\``;
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A JSON Schema as a short type: `string or null`, `'a' | 'b'`, `{ day: string; people: number }[]`. */
export function typeText(schema: Json | undefined, depth = 0): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop()!;
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as Json[]).map((s) => typeText(s, depth)).join(' or ');
  }
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => typeText({ ...schema, type: t }, depth)).join(' or ');
  if (type === 'array') {
    const item = typeText(schema.items as Json, depth);
    return item.includes(' ') && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
  }
  if (type === 'object') {
    const props = schema.properties as Record<string, Json> | undefined;
    if (!props) {
      const values = schema.additionalProperties;
      return values && typeof values === 'object' ? `{ [key: string]: ${typeText(values as Json, depth + 1)} }` : 'object';
    }
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const fields = Object.entries(props).map(([name, s]) => `${name}${required.has(name) ? '' : '?'}: ${typeText(s, depth + 1)}`);
    return `{ ${fields.join('; ')} }`;
  }
  return String(type ?? 'any');
}

function shape(schema: Json): string[] {
  let target = schema;
  let lead = '';
  if (schema.type === 'array' && (schema.items as Json | undefined)?.properties) {
    target = schema.items as Json;
    lead = 'an array of:';
  }
  const props = target.properties as Record<string, Json> | undefined;
  if (!props) return [code(typeText(schema))];
  const required = new Set((target.required as string[] | undefined) ?? []);
  return [
    ...(lead ? [lead, ''] : []),
    '| field | type | |',
    '| --- | --- | --- |',
    ...Object.entries(props).map(([name, s]) => `| \`${name}\` | ${cell(code(typeText(s)))} | ${required.has(name) ? '' : 'optional'} |`),
  ];
}

const STATUS_WORDS: Record<string, string> = { '200': 'OK', '201': 'Created', '304': 'Not modified' };

function callSection(method: string, path: string, op: Operation, note: string | undefined): string[] {
  const access = op['x-access'];
  const lines = [`### \`${method.toUpperCase()} ${path}\``, ''];
  const subscription = access.activeSubscription === 'no' ? '' : `; an active subscription for ${access.activeSubscription}`;
  lines.push(`Who: ${access.who}${subscription} (rule \`${access.rule}\`). Reads: ${op['x-reads']}.`, '');
  if (op.parameters?.length) {
    lines.push('| parameter | in | type | |', '| --- | --- | --- | --- |');
    for (const p of op.parameters) lines.push(`| \`${p.name}\` | ${p.in} | ${cell(code(typeText(p.schema)))} | ${p.required ? '' : 'optional'} |`);
    lines.push('');
  }
  for (const [type, body] of Object.entries(op.requestBody?.content ?? {})) lines.push(`Body (${type}):`, '', ...shape(body.schema), '');
  const errors: string[] = [];
  for (const [status, answer] of Object.entries(op.responses)) {
    if (Number(status) < 400) {
      const content = (answer.content as Record<string, { schema: Json }> | undefined)?.['application/json'];
      if (content) lines.push(`**${status}** ${STATUS_WORDS[status] ?? ''}:`, '', ...shape(content.schema), '');
      else lines.push(`**${status}** ${STATUS_WORDS[status] ?? ''}${note ? ' (see below)' : ''}`, '');
      continue;
    }
    if (answer.$ref) {
      if (status === '400')
        errors.push("| 400 | `Invalid input (<field>)` or the field's own message | the field's | a body or parameter that does not match |");
      if (status === '401') errors.push('| 401 | `Unauthorized` | | no token, or a bad or ended one |');
      if (status === '403') {
        errors.push('| 403 | `You are not allowed to do this` | `notAllowed` | a role outside "who" |');
        if (access.activeSubscription !== 'no')
          errors.push('| 403 | `Your subscription is not active` | `common.subscriptionInactive` | a role that needs an active subscription has none |');
      }
      continue;
    }
    const examples = (answer.content as Record<string, { examples: Record<string, { summary?: string; value: { message: string; code?: string } }> }>)[
      'application/json'
    ]!.examples;
    for (const e of Object.values(examples))
      errors.push(`| ${status} | ${cell(code(e.value.message))} | ${e.value.code ? code(e.value.code) : ''} | ${cell(e.summary ?? '')} |`);
  }
  if (errors.length) lines.push('| status | message | code | when |', '| --- | --- | --- | --- |', ...errors, '');
  if (note) lines.push(note, '');
  return lines;
}

export function splitProse(prose: string): { intro: string; notes: Map<string, string> } {
  const parts = prose.split(/^## (`[A-Z]+ \/[^\n]*)$/m);
  const notes = new Map<string, string>();
  for (let i = 1; i < parts.length; i += 2) {
    const calls = [...parts[i]!.matchAll(/`([A-Z]+ \/[^`]+)`/g)].map((m) => m[1]!);
    const text = parts[i + 1]!.trim();
    for (const [n, call] of calls.entries()) notes.set(call, n === 0 ? text : `Notes: with \`${calls[0]}\`.`);
  }
  return { intro: parts[0]!.trim(), notes };
}

/** Every page: docs/api/<page>.md by page name. Throws on a note for a call that does not exist. */
export function apiPages(openapi: OpenApiDocument, prose: Record<string, string>): Record<string, string> {
  const byPage = new Map<string, [string, string, Operation][]>();
  for (const [path, methods] of Object.entries(openapi.paths)) {
    for (const [method, op] of Object.entries(methods as Record<string, Operation>)) {
      const page = op.tags[0]!;
      byPage.set(page, [...(byPage.get(page) ?? []), [method, path, op]]);
    }
  }
  const pages: Record<string, string> = {};
  for (const page of [...new Set([...byPage.keys(), ...Object.keys(prose)])].sort()) {
    const { intro, notes } = splitProse(prose[page] ?? `# /api: ${page}`);
    const calls = byPage.get(page) ?? [];
    const known = new Set(calls.map(([m, p]) => `${m.toUpperCase()} ${p}`));
    const stray = [...notes.keys()].filter((k) => !known.has(k));
    if (stray.length) throw new Error(`docs/api/prose/${page}.md has notes for calls that are not on this page: ${stray.join(', ')}`);
    const [title, ...rest] = intro.split('\n');
    const lines = [
      title!,
      '',
      `<!-- Generated by \`npm run docs:api\`: edit docs/api/prose/${page}.md (the hand-written concepts and notes) or the routes and schemas, not this file; a test fails when it is stale. -->`,
      '',
      ...(rest.join('\n').trim() ? [rest.join('\n').trim(), ''] : []),
      '## Calls',
      '',
      'Generated from [openapi.json](openapi.json): who may call each call ([access.md](access.md)), its parameters and body, its answers and its `{"message": "...", "code": "..."}` errors (`code` and `params`: see [the API guide](../guides/api.md#error-codes-and-languages)). A field marked optional may be left out.',
      '',
      ...calls.flatMap(([method, path, op]) => callSection(method, path, op, notes.get(`${method.toUpperCase()} ${path}`))),
    ];
    pages[page] = `${lines.join('\n').trim()}\n`;
  }
  return pages;
}
