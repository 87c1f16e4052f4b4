// The calls `npm run bench` measures: each call's service time (callList) and a team's working hour
// for the mixed workload (mixActions), both read from what bench/run.mjs prepared.
import { callBody } from '../scripts/call-body.mjs';
import { PERSON_CLICK } from './load.mjs';
import { ONLY } from './settings.mjs';

const DAY = 86_400_000;

/** The headers of a signed-in call. */
export const json = (t) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' });

let unique = 0;
const uniqueId = (what) => `bench-${what}-${process.pid}-${++unique}-${Math.random().toString(36).slice(2, 8)}`;

/** The calls whose service time is measured: [name, { p, method?, headers, body? | setup? }, judged?]. */
export function callList(ctx, vars) {
  const m = json(ctx.manager.accessToken);
  const ad = json(ctx.admin.accessToken);
  const ag = ctx.agents[0];
  const a = json(ag.accessToken);
  const page = (extra) => ({
    method: 'POST',
    p: '/api/callHistory/page',
    headers: m,
    body: JSON.stringify({ ...ctx.history, page: 1, pageSize: 50, ...extra }),
  });
  const list = [
    [
      'POST /api/auth/login (PBKDF2, 100,000 iterations: exempt)',
      {
        method: 'POST',
        p: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD, clientType: 0 }),
      },
      false,
    ],
    ['GET /api/user (admin, 500 users)', { p: '/api/user', headers: ad }],
    [
      'POST /api/user/managerChildUsers (a team of 40)',
      { method: 'POST', p: '/api/user/managerChildUsers', headers: m, body: JSON.stringify({ parentId: ctx.manager.userId, includeParent: true }) },
    ],
    ['POST /api/broker (20,000 filters, newest 500)', { method: 'POST', p: '/api/broker', headers: m, body: JSON.stringify(ctx.brokerSearch) }],
    ['POST /api/broker name "ridge" (FTS5)', { method: 'POST', p: '/api/broker', headers: m, body: JSON.stringify({ ...ctx.brokerSearch, name: 'ridge' }) }],
    [
      'POST /api/broker name "ri" (under 3 characters)',
      { method: 'POST', p: '/api/broker', headers: m, body: JSON.stringify({ ...ctx.brokerSearch, name: 'ri' }) },
    ],
    ["GET /api/broker/minified (the extension's flags)", { p: '/api/broker/minified', headers: a }],
    ['GET /api/broker/queue/count', { p: '/api/broker/queue/count', headers: m }],
    ['GET /api/mcSettings', { p: '/api/mcSettings', headers: m }],
    [
      "POST /api/callHistory/getHistory (40 days whole: the spec's form, exempt)",
      { method: 'POST', p: '/api/callHistory/getHistory', headers: m, body: JSON.stringify(ctx.history) },
      false,
    ],
  ];
  if (ctx.paged) {
    // a Load answers its first page with the load's total, Companies and days; the screen asks for
    // each page, sort, search or Company change after it without them (`summary: false`)
    list.push(
      ['POST /api/callHistory/page (a Load: first 50 of 40 days, with the summary)', page({})],
      ['POST /api/callHistory/page (next page, page alone)', page({ page: 2, summary: false })],
      ['POST /api/callHistory/page (page 400, page alone)', page({ page: 400, summary: false })],
      ['POST /api/callHistory/page (search "lo", page alone)', page({ search: 'lo', summary: false })],
      ['POST /api/callHistory/page (one Company, page alone)', page({ company: ctx.paged.company, summary: false })],
      ['POST /api/callHistory/page (sorted by Company, page alone)', page({ sort: { column: 'brokerName', dir: 'asc' }, summary: false })],
    );
  }
  list.push(
    [
      'POST /api/callHistory/log (a call, from the extension)',
      {
        method: 'POST',
        p: '/api/callHistory/log',
        headers: a,
        expect: 201,
        setup: () =>
          JSON.stringify(
            callBody({
              clientId: uniqueId('call'),
              mcSettingId: ag.mcSettingId,
              loadDate: new Date().toISOString().slice(0, 10),
              callDate: Date.now(),
            }),
          ),
      },
    ],
    ['GET /api/activeLoad/my', { p: '/api/activeLoad/my', headers: a }],
    // no body (the spec's call takes none): a body the route never reads makes workerd reset the kept-alive connection
    ['POST /api/activeLoad/team', { method: 'POST', p: '/api/activeLoad/team', headers: { authorization: m.authorization } }],
    ['GET /api/subscription/status', { p: '/api/subscription/status', headers: m }],
    [
      'POST /api/subscription/childUsersSubscriptions',
      {
        method: 'POST',
        p: '/api/subscription/childUsersSubscriptions',
        headers: m,
        body: JSON.stringify({ parentId: ctx.manager.userId, includeParent: false }),
      },
    ],
    ['GET /api/payment/paymentHistory', { p: '/api/payment/paymentHistory', headers: m }],
    [
      'POST /api/analytics/loginHistory (admin)',
      { method: 'POST', p: '/api/analytics/loginHistory', headers: ad, body: JSON.stringify({ dateFrom: Date.now() - 30 * DAY }) },
    ],
    ['GET /api/link', { p: '/api/link', headers: m }],
    ['GET /api/link/{id} (with its click stats)', { p: `/api/link/${ctx.linkId}`, headers: m }],
    ['POST /api/link/generate', { method: 'POST', p: '/api/link/generate', headers: m, body: JSON.stringify({ from: 'https://example.com/bench' }) }],
    ['GET /api/promocode (admin)', { p: '/api/promocode', headers: ad }],
    ['GET /api/auth/sessions', { p: '/api/auth/sessions', headers: m }],
  );
  return list.filter(([name]) => !ONLY || name.includes(ONLY));
}

/** A team's working hour, compressed: the actions people take, by how often they take them. */
export function mixActions(ctx) {
  const m = json(ctx.manager.accessToken);
  const anyAgent = () => ctx.agents[Math.floor(Math.random() * ctx.agents.length)];
  const words = ['ridge', 'logistics', 'freight', 'trans', 'express', 'global', 'coyote', 'total'];
  const word = () => words[Math.floor(Math.random() * words.length)];
  const pages = Math.max(1, Math.floor((ctx.paged?.total ?? 50) / 25));
  const actions = [
    {
      name: 'filters: search a name',
      weight: 20,
      request: () => ({
        method: 'POST',
        path: '/api/broker',
        headers: json(anyAgent().accessToken),
        body: JSON.stringify({ ...ctx.brokerSearch, name: word() }),
      }),
    },
    { name: "filters: the extension's flags", weight: 10, request: () => ({ path: '/api/broker/minified', headers: json(anyAgent().accessToken) }) },
    {
      name: 'history: log a call or e-mail',
      weight: 20,
      request: () => {
        const a = anyAgent();
        const kind = Math.random() < 0.7 ? 'call' : 'email';
        return {
          method: 'POST',
          path: '/api/callHistory/log',
          expect: 201,
          headers: json(a.accessToken),
          body: JSON.stringify(
            callBody({
              clientId: uniqueId(kind),
              mcSettingId: a.mcSettingId,
              kind,
              contact: kind === 'call' ? '+1 (312) 555-0142' : 'dispatch@broker.example',
              brokerName: `${word()} Logistics`,
              loadDate: new Date().toISOString().slice(0, 10),
              callDate: Date.now(),
            }),
          ),
        };
      },
    },
    { name: 'loads: my active loads', weight: 10, request: () => ({ path: '/api/activeLoad/my', headers: json(anyAgent().accessToken) }) },
    { name: 'MC settings and lines', weight: 5, request: () => ({ path: '/api/mcSettings', headers: json(anyAgent().accessToken) }) },
    { name: 'subscription status', weight: 10, request: () => ({ path: '/api/subscription/status', headers: json(anyAgent().accessToken) }) },
    { name: 'links: the list', weight: 5, request: () => ({ path: '/api/link', headers: m }) },
    { name: 'links: a click on a short link', weight: 15, request: () => ({ path: `/s/${ctx.code}`, headers: PERSON_CLICK, expect: 302 }) },
  ];
  if (ctx.paged)
    actions.push({
      name: 'history: the manager pages 40 days',
      weight: 5,
      request: () => ({
        method: 'POST',
        path: '/api/callHistory/page',
        headers: m,
        body: JSON.stringify({
          ...ctx.history,
          page: 1 + Math.floor(Math.random() * pages),
          pageSize: 25,
          ...(Math.random() < 0.3 ? { search: word().slice(0, 4) } : {}),
        }),
      }),
    });
  return actions;
}
