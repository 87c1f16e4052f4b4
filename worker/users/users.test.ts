import { describe, expect, it } from 'vitest';
import { decide, ROLES, type Role, RULES } from '../lib/permissions';
import { call, countRows, createTeam, createUser, getUser, loginToken, outbox, PASSWORD, type TestUser, tokenFromMail } from '../test/helpers';
import { ruleOf } from '../test/routes';

describe('GET /api/user: the list by the tree', () => {
  it('admin sees everyone, a manager its agents, a director its managers and their agents', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const admin = await createUser('admin');
    const all = (await call('GET', '/api/user', { token: admin.token })).body.map((u: any) => u._id);
    for (const id of [a.manager.id, a.agents[0].id, b.director.id, b.agents[1].id]) expect(all).toContain(id);

    const mine = await call('GET', '/api/user', { token: a.manager.token });
    expect(mine.status).toBe(200);
    expect(mine.body.map((u: any) => u._id).sort()).toEqual([a.agents[0].id, a.agents[1].id].sort());
    const agent = mine.body.find((u: any) => u._id === a.agents[0].id);
    expect(agent).toMatchObject({ userType: 'agent', isEmailVerified: true, parent: { _id: a.manager.id, email: a.manager.email } });
    expect(typeof agent.subscriptionEndDate).toBe('string');

    const dir = (await call('GET', '/api/user', { token: a.director.token })).body.map((u: any) => u._id).sort();
    expect(dir).toEqual([a.manager.id, a.agents[0].id, a.agents[1].id].sort());
  });

  it('agents and marketing users may not list users', async () => {
    const a = await createTeam();
    expect((await call('GET', '/api/user', { token: a.agents[0].token })).status).toBe(403);
    expect((await call('GET', '/api/user', { token: (await createUser('marketing')).token })).status).toBe(403);
    expect((await call('GET', '/api/user')).status).toBe(401);
  });
});

describe('GET /api/user/:id and team lists', () => {
  it('answers a visible user and 404 for another team', async () => {
    const a = await createTeam();
    const b = await createTeam();
    expect((await call('GET', `/api/user/${a.agents[0].id}`, { token: a.manager.token })).body.email).toBe(a.agents[0].email);
    expect((await call('GET', `/api/user/${b.agents[0].id}`, { token: a.manager.token })).status).toBe(404);
    expect((await call('GET', `/api/user/${a.agents[1].id}`, { token: a.agents[0].token })).status).toBe(404);
    expect((await call('GET', `/api/user/${a.agents[0].id}`, { token: a.agents[0].token })).status).toBe(200);
    expect((await call('GET', `/api/user/${a.agents[0].id}`, { token: b.director.token })).status).toBe(404);
  });

  it('childUsers, managerChildUsers, allTeam, manager and directorChildManagers follow the tree', async () => {
    const a = await createTeam();
    const b = await createTeam();
    const kids = await call('GET', `/api/user/childUsers/${a.manager.id}`, { token: a.director.token });
    expect(kids.body.map((u: any) => u._id).sort()).toEqual([a.agents[0].id, a.agents[1].id].sort());
    expect((await call('GET', `/api/user/childUsers/${b.manager.id}`, { token: a.director.token })).status).toBe(404);

    const withParent = await call('POST', '/api/user/managerChildUsers', { token: a.manager.token, body: { parentId: a.manager.id, includeParent: true } });
    expect(withParent.body).toHaveLength(3);
    expect(withParent.body[0]._id).toBe(a.manager.id);
    expect((await call('POST', '/api/user/managerChildUsers', { token: a.manager.token, body: { parentId: b.manager.id } })).status).toBe(404);

    expect((await call('GET', '/api/user/allTeam', { token: a.manager.token })).body).toHaveLength(3);
    expect((await call('GET', '/api/user/manager', { token: a.agents[0].token })).body._id).toBe(a.manager.id);
    const managers = await call('GET', '/api/user/directorChildManagers', { token: a.director.token });
    expect(managers.body.map((u: any) => u._id)).toEqual([a.manager.id]);
    expect((await call('GET', '/api/user/directorChildManagers', { token: a.manager.token })).status).toBe(403);
  });

  it('directorsList, marketingUsers and userByEmail are for the admin', async () => {
    const admin = await createUser('admin');
    const director = await createUser('director');
    const marketing = await createUser('marketing');
    expect((await call('GET', '/api/user/directorsList', { token: admin.token })).body.map((u: any) => u._id)).toContain(director.id);
    expect((await call('GET', '/api/user/marketingUsers', { token: admin.token })).body.map((u: any) => u._id)).toContain(marketing.id);
    expect((await call('GET', '/api/user/directorsList', { token: director.token })).status).toBe(403);
    expect((await call('POST', '/api/user/userByEmail', { token: marketing.token, body: { email: director.email.toUpperCase() } })).body._id).toBe(director.id);
    expect((await call('POST', '/api/user/userByEmail', { token: admin.token, body: { email: 'nobody@x.example' } })).status).toBe(404);
  });
});

describe('POST /api/user/register', () => {
  it('a manager creates an agent under itself, unverified, with a verification mail', async () => {
    const manager = await createUser('manager');
    const email = `new-agent-${Date.now()}@test.example`;
    const res = await call('POST', '/api/user/register', {
      token: manager.token,
      body: { email, password: 'secret1', name: 'New Agent', newUserType: 'admin', parentUser: 'someone-else' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ userType: 'agent', isEmailVerified: false, parent: { _id: manager.id } });
    expect((await outbox()).some((m) => m.to === email && m.subject === 'Verify your e-mail')).toBe(true);
    expect(await loginToken(email, 'secret1')).toBeTruthy();
  });

  it('checks in the spec order with its messages and creates nothing on failure', async () => {
    const manager = await createUser('manager');
    const before = await countRows('users');
    const cases: [Record<string, string>, string][] = [
      [{ email: '', password: 'secret1', name: 'X' }, 'Email is Empty'],
      [{ email: 'a@b.example', password: '', name: 'X' }, 'Password is Empty'],
      [{ email: 'a@b.example', password: '12345', name: 'X' }, 'Password must be minimum 6 symbols'],
      [{ email: 'a@b.example', password: '123456', name: '  ' }, 'Name is Empty'],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/user/register', { token: manager.token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    // the schema checks a phone whoever sends it (a manager's form has none, and its agents get none)
    const phone = await call('POST', '/api/user/register', {
      token: manager.token,
      body: { email: 'p@b.example', password: 'secret1', name: 'P', phone: '+3749', country: 'AM' },
    });
    expect([phone.status, phone.body.message]).toEqual([400, 'Wrong phone number']);
    const dup = await call('POST', '/api/user/register', { token: manager.token, body: { email: manager.email, password: 'secret1', name: 'Dup' } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('This e-mail is already registered');
    expect(await countRows('users')).toBe(before);
  });

  it('the admin creates any type, agents under a manager, managers under a director', async () => {
    const admin = await createUser('admin');
    const a = await createTeam();
    const mk = (body: object) =>
      call('POST', '/api/user/register', { token: admin.token, body: { password: 'secret1', name: 'N', email: `u${Math.random()}@t.example`, ...body } });
    expect((await mk({ newUserType: 'admin' })).body.user.userType).toBe('admin');
    expect((await mk({ newUserType: 'agent' })).body.message).toBe('Select the parent manager');
    expect((await mk({ newUserType: 'agent', parentUser: a.director.id })).body.message).toBe('The parent must be a manager');
    expect((await mk({ newUserType: 'agent', parentUser: a.manager.id })).body.user.parent._id).toBe(a.manager.id);
    expect((await mk({ newUserType: 'manager', parentUser: a.director.id })).body.user.parent._id).toBe(a.director.id);
    expect((await mk({ newUserType: 'marketing', phone: '+37491', country: 'AM' })).body.message).toBe('Wrong phone number');
    expect((await mk({ newUserType: 'marketing', phone: '+37491234567', country: 'AM' })).body.user.phone).toBe('+37491234567');
  });

  it('agents and directors may not create users', async () => {
    const a = await createTeam();
    for (const who of [a.agents[0], a.director]) {
      expect((await call('POST', '/api/user/register', { token: who.token, body: { email: 'x@y.example', password: 'secret1', name: 'X' } })).status).toBe(403);
    }
  });
});

describe('updates', () => {
  it('a user changes its own name, e-mail (re-verified) and password (other sessions end)', async () => {
    const user = await createUser('agent');
    expect((await call('PUT', `/api/user/update/name/${user.id}`, { token: user.token, body: { newName: '  ' } })).body.message).toBe('Name is Empty');
    expect((await call('PUT', `/api/user/update/name/${user.id}`, { token: user.token, body: { newName: 'Renamed' } })).status).toBe(200);
    expect((await getUser(user.id))!.name).toBe('Renamed');

    expect((await call('PUT', `/api/user/update/email/${user.id}`, { token: user.token, body: { newEmail: '' } })).body.message).toBe('Email is Empty');
    const newEmail = `moved-${Date.now()}@test.example`;
    const moved = await call('PUT', `/api/user/update/email/${user.id}`, { token: user.token, body: { newEmail, currentPassword: PASSWORD } });
    expect(moved.status).toBe(200);
    user.token = moved.body.accessToken;
    const row = (await getUser(user.id))!;
    expect(row.email).toBe(newEmail);
    expect(row.isEmailVerified).toBe(false);
    const hash = await tokenFromMail(newEmail, 'emailVerify');
    expect((await call('GET', `/api/user/verify/${hash}`)).status).toBe(200);
    expect((await getUser(user.id))!.isEmailVerified).toBe(true);

    expect((await call('PUT', `/api/user/update/password/${user.id}`, { token: user.token, body: { newPassword: '' } })).body.message).toBe(
      'Password is empty',
    );
    expect((await call('PUT', `/api/user/update/password/${user.id}`, { token: user.token, body: { newPassword: '123' } })).body.message).toBe(
      'Password minimum 6 symbols',
    );
    const changed = await call('PUT', `/api/user/update/password/${user.id}`, {
      token: user.token,
      body: { newPassword: 'brand-new-pass', currentPassword: PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect((await call('GET', '/api/subscription/status', { token: user.token })).status).toBe(401);
    expect((await call('GET', '/api/subscription/status', { token: changed.body.accessToken })).status).toBe(200);
    expect(await loginToken(newEmail, 'brand-new-pass')).toBeTruthy();
  });

  it('a manager manages its own agents but not another team, nor its director', async () => {
    const a = await createTeam();
    const b = await createTeam();
    expect((await call('PUT', `/api/user/update/name/${a.agents[0].id}`, { token: a.manager.token, body: { newName: 'By Manager' } })).status).toBe(200);
    expect((await call('PUT', `/api/user/update/name/${b.agents[0].id}`, { token: a.manager.token, body: { newName: 'Hijack' } })).status).toBe(404);
    expect((await call('PUT', `/api/user/update/name/${a.agents[1].id}`, { token: a.agents[0].token, body: { newName: 'Hijack' } })).status).toBe(404);
    expect((await call('PUT', `/api/user/update/password/${a.agents[0].id}`, { token: a.director.token, body: { newPassword: 'hijacked1' } })).status).toBe(
      403,
    );
    expect((await getUser(b.agents[0].id))!.name).not.toBe('Hijack');
    expect(await loginToken(a.agents[0].email, PASSWORD)).toBeTruthy();
  });

  it('only the admin changes type, parent and trials; a demoted user is logged out at once', async () => {
    const admin = await createUser('admin');
    const a = await createTeam();
    const other = await createTeam();
    const agent = a.agents[0];
    expect((await call('PUT', `/api/user/update/userType/${agent.id}`, { token: a.manager.token, body: { userNewType: 'manager' } })).status).toBe(403);
    expect((await call('PUT', `/api/user/update/parent/${agent.id}`, { token: admin.token, body: { newParent: other.manager.id } })).status).toBe(200);
    expect((await getUser(agent.id))!.parentId).toBe(other.manager.id);
    expect((await call('GET', '/api/subscription/status', { token: agent.token })).status).toBe(401);
    expect((await call('PUT', `/api/user/update/parent/${agent.id}`, { token: admin.token, body: { newParent: other.director.id } })).body.message).toBe(
      'The parent must be a manager',
    );

    const res = await call('PUT', `/api/user/update/userType/${a.agents[1].id}`, { token: admin.token, body: { userNewType: 'marketing' } });
    expect(res.status).toBe(200);
    expect(await getUser(a.agents[1].id)).toMatchObject({ userType: 'marketing', parentId: null });
    expect((await call('PUT', `/api/user/update/userType/${other.manager.id}`, { token: admin.token, body: { userNewType: 'agent' } })).status).toBe(409);
    expect((await call('PUT', `/api/user/update/userType/${admin.id}`, { token: admin.token, body: { userNewType: 'agent' } })).status).toBe(400);
  });

  it('trial start, stop and end date', async () => {
    const admin = await createUser('admin');
    const user = await createUser('manager', { subscriptionDays: null });
    expect((await call('PUT', `/api/user/update/trialPeriodState/${user.id}`, { token: admin.token, body: { isActive: true } })).status).toBe(200);
    let row = (await getUser(user.id))!;
    expect(row.isTrialPeriod).toBe(true);
    expect(Math.round((row.subscriptionEndDate!.getTime() - Date.now()) / 86_400_000)).toBe(14);
    expect((await call('PUT', `/api/user/update/trialPeriodEndDate/${user.id}`, { token: admin.token, body: { newDate: 'not a date' } })).body.message).toBe(
      'Choose a valid date',
    );
    expect((await call('PUT', `/api/user/update/trialPeriodEndDate/${user.id}`, { token: admin.token, body: { newDate: '2031-02-03' } })).status).toBe(200);
    expect((await getUser(user.id))!.subscriptionEndDate!.toISOString()).toBe('2031-02-03T00:00:00.000Z');
    expect((await call('PUT', `/api/user/update/trialPeriodState/${user.id}`, { token: admin.token, body: { isActive: false } })).status).toBe(200);
    row = (await getUser(user.id))!;
    expect(row.isTrialPeriod).toBe(false);
    expect(row.subscriptionEndDate!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await call('PUT', `/api/user/update/trialPeriodState/${user.id}`, { token: user.token, body: { isActive: true } })).status).toBe(403);
  });

  it('resends the verification mail only while unverified', async () => {
    const user = await createUser('manager', { isEmailVerified: false });
    expect((await call('PUT', `/api/user/resendEmailVerification/${user.id}`, { token: user.token })).status).toBe(200);
    expect((await outbox()).some((m) => m.to === user.email)).toBe(true);
    const verified = await createUser('manager');
    expect((await call('PUT', `/api/user/resendEmailVerification/${verified.id}`, { token: verified.token })).body.message).toBe(
      'This e-mail is already verified',
    );
  });
});

describe('DELETE /api/user', () => {
  it('a manager deletes its agent: it cannot log in, its data stays, its e-mail is free again', async () => {
    const a = await createTeam();
    const agent = a.agents[0];
    const res = await call('DELETE', '/api/user', { token: a.manager.token, body: { userId: agent.id } });
    expect(res.status).toBe(200);
    expect((await getUser(agent.id))!.deletedAt).not.toBeNull();
    expect((await call('GET', '/api/subscription/status', { token: agent.token })).status).toBe(401);
    expect((await call('POST', '/api/auth/login', { body: { email: agent.email, password: PASSWORD } })).status).toBe(400);
    expect((await call('GET', '/api/user', { token: a.manager.token })).body.map((u: any) => u._id)).toEqual([a.agents[1].id]);
    const again = await call('POST', '/api/user/register', { token: a.manager.token, body: { email: agent.email, password: 'secret1', name: 'Back' } });
    expect(again.status).toBe(200);
  });

  it('refuses other teams, itself, directors, and a manager that still has agents', async () => {
    const admin = await createUser('admin');
    const a = await createTeam();
    const b = await createTeam();
    expect((await call('DELETE', '/api/user', { token: a.manager.token, body: { userId: b.agents[0].id } })).status).toBe(404);
    expect((await call('DELETE', '/api/user', { token: a.manager.token, body: { userId: a.manager.id } })).status).toBe(400);
    expect((await call('DELETE', '/api/user', { token: a.director.token, body: { userId: a.agents[0].id } })).status).toBe(403);
    expect((await call('DELETE', '/api/user', { token: a.agents[0].token, body: { userId: a.agents[1].id } })).status).toBe(403);
    const busy = await call('DELETE', '/api/user', { token: admin.token, body: { userId: a.manager.id } });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('This manager still has agents: move or delete them first');
    expect((await getUser(b.agents[0].id))!.deletedAt).toBeNull();
    expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: b.director.id } })).status).toBe(200);
    expect((await getUser(b.manager.id))!.parentId).toBeNull();
  });
});

/** Whether a role with an active subscription passes the rule the route names (read from the app's routes). */
const reaches = (role: Role, method: string, path: string) => decide(RULES[ruleOf(method, path)], role, true).ok;

/** Every call, acting on the caller's own team: who may reach it comes from the route's rule. */
function routes(self: { id: string }, team: Awaited<ReturnType<typeof createTeam>>) {
  return [
    { method: 'GET', path: '/api/user' },
    { method: 'GET', path: '/api/user/directorsList' },
    { method: 'GET', path: '/api/user/marketingUsers' },
    { method: 'GET', path: '/api/user/manager' },
    { method: 'GET', path: '/api/user/directorChildManagers' },
    { method: 'GET', path: '/api/user/allTeam' },
    { method: 'GET', path: `/api/user/childUsers/${self.id}` },
    { method: 'GET', path: `/api/user/${self.id}` },
    { method: 'POST', path: '/api/user/managerChildUsers', body: { parentId: team.manager.id } },
    { method: 'POST', path: '/api/user/userByEmail', body: { email: team.agents[0].email } },
    { method: 'PUT', path: `/api/user/update/name/${self.id}`, body: { newName: 'Same Name' } },
    { method: 'PUT', path: `/api/user/update/userType/${team.agents[1].id}`, body: { userNewType: 'agent' } },
    { method: 'PUT', path: `/api/user/update/trialPeriodEndDate/${team.agents[1].id}`, body: { newDate: '2040-01-01' } },
    { method: 'PUT', path: `/api/user/update/trialPeriodState/${team.agents[1].id}`, body: { isActive: false } },
    { method: 'PUT', path: `/api/user/update/parent/${team.agents[1].id}`, body: { newParent: team.manager.id } },
  ] as { method: string; path: string; body?: object }[];
}

describe('access matrix: every call, every role, no token', () => {
  it('answers 401 without a token on every call, and changes nothing', async () => {
    const team = await createTeam();
    const writes = [
      ['DELETE', '/api/user', { userId: team.agents[0].id }],
      ['POST', '/api/user/register', { email: 'anon@x.example', password: 'secret1', name: 'Anon' }],
      ['PUT', `/api/user/update/email/${team.agents[0].id}`, { newEmail: 'anon@x.example' }],
      ['PUT', `/api/user/update/password/${team.agents[0].id}`, { newPassword: 'anon-pass' }],
      ['PUT', `/api/user/resendEmailVerification/${team.agents[0].id}`, undefined],
    ] as const;
    for (const r of routes(team.agents[0], team))
      expect([r.method, r.path, (await call(r.method, r.path, { body: r.body })).status]).toEqual([r.method, r.path, 401]);
    for (const [method, path, body] of writes) expect([path, (await call(method, path, { body })).status]).toEqual([path, 401]);
    const bad = await call('GET', '/api/user', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(await getUser(team.agents[0].id)).toMatchObject({ deletedAt: null, email: team.agents[0].email });
    expect(await loginToken(team.agents[0].email)).toBeTruthy();
  });

  it.each(ROLES)('%s reaches exactly its calls (403 "You are not allowed to do this" elsewhere)', async (role) => {
    const admin = await createUser('admin');
    const team = await createTeam();
    const marketing = await createUser('marketing');
    const self =
      role === 'admin' ? admin : role === 'marketing' ? marketing : role === 'director' ? team.director : role === 'manager' ? team.manager : team.agents[0];
    for (const r of routes(self, team)) {
      const res = await call(r.method, r.path, { token: self.token, body: r.body });
      if (reaches(role, r.method, r.path)) expect([r.path, res.status]).toEqual([r.path, 200]);
      else expect([r.path, res.status, res.body.message]).toEqual([r.path, 403, 'You are not allowed to do this']);
    }
    // nothing a refused call could have changed did change
    if (role !== 'admin')
      expect(await getUser(team.agents[1].id)).toMatchObject({ parentId: team.manager.id, subscriptionEndDate: expect.any(Date), isTrialPeriod: false });
    const create = await call('POST', '/api/user/register', {
      token: self.token,
      body: { email: `m-${role}-${Date.now()}@t.example`, password: 'secret1', name: 'N', newUserType: 'agent', parentUser: team.manager.id },
    });
    expect(create.status).toBe(reaches(role, 'POST', '/api/user/register') ? 200 : 403);
  });

  it('with an expired subscription a manager keeps only its profile calls', async () => {
    const manager = await createUser('manager', { subscriptionDays: -1 });
    const agent = await createUser('agent', { parentId: manager.id });
    const list = await call('GET', '/api/user', { token: manager.token });
    expect(list.status).toBe(403);
    expect(list.body.message).toBe('Your subscription is not active');
    expect((await call('POST', '/api/user/register', { token: manager.token, body: { email: 'x@late.example', password: 'secret1', name: 'X' } })).status).toBe(
      403,
    );
    expect((await call('DELETE', '/api/user', { token: manager.token, body: { userId: agent.id } })).status).toBe(403);
    expect((await getUser(agent.id))!.deletedAt).toBeNull();
    expect((await call('GET', `/api/user/${manager.id}`, { token: manager.token })).status).toBe(200);
    expect((await call('PUT', `/api/user/update/name/${manager.id}`, { token: manager.token, body: { newName: 'Still Me' } })).status).toBe(200);
  });
});

describe('another team answers 404 on every call that names a user, and nothing changes', () => {
  it.each(['director', 'manager', 'agent'] as const)('%s of team A on team B', async (role) => {
    const a = await createTeam();
    const b = await createTeam();
    const self = role === 'director' ? a.director : role === 'manager' ? a.manager : a.agents[0];
    const victim = b.agents[0];
    const before = await getUser(victim.id);
    const attempts = [
      ['GET', `/api/user/${victim.id}`, undefined],
      ['GET', `/api/user/${b.manager.id}`, undefined],
      ['GET', `/api/user/childUsers/${b.manager.id}`, undefined],
      ['POST', '/api/user/managerChildUsers', { parentId: b.manager.id, includeParent: true }],
      ['PUT', `/api/user/update/name/${victim.id}`, { newName: 'Hijack' }],
      ['PUT', `/api/user/update/email/${victim.id}`, { newEmail: 'hijack@x.example' }],
      ['PUT', `/api/user/update/password/${victim.id}`, { newPassword: 'hijacked' }],
      ['PUT', `/api/user/resendEmailVerification/${victim.id}`, undefined],
      ['DELETE', '/api/user', { userId: victim.id }],
    ] as const;
    const reachable = (path: string) =>
      (!path.includes('childUsers') || role !== 'agent') &&
      (!path.includes('managerChildUsers') || role !== 'agent') &&
      (path !== '/api/user' || role === 'manager');
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, { token: self.token, body });
      expect([method, path, res.status]).toEqual([method, path, reachable(path) ? 404 : 403]);
    }
    expect(await getUser(victim.id)).toEqual(before);
    expect(await loginToken(victim.email)).toBeTruthy();
    const lists = [
      (await call('GET', '/api/user', { token: a.manager.token })).body,
      (await call('GET', '/api/user', { token: a.director.token })).body,
      (await call('GET', '/api/user/allTeam', { token: self.token })).body,
    ];
    for (const list of lists) for (const id of [b.director.id, b.manager.id, victim.id]) expect(list.map((u: any) => u._id)).not.toContain(id);
  });

  it('inside the team: a director is read-only, an agent sees only itself, a manager not its director', async () => {
    const a = await createTeam();
    for (const [method, path, body] of [
      ['PUT', `/api/user/update/name/${a.agents[0].id}`, { newName: 'By Director' }],
      ['PUT', `/api/user/update/email/${a.manager.id}`, { newEmail: 'dir@x.example' }],
      ['PUT', `/api/user/update/password/${a.agents[0].id}`, { newPassword: 'by-director' }],
      ['PUT', `/api/user/resendEmailVerification/${a.manager.id}`, undefined],
    ] as const) {
      const res = await call(method, path, { token: a.director.token, body });
      expect([path, res.status, res.body.message]).toEqual([path, 403, 'You are not allowed to change this user']);
    }
    expect((await call('GET', `/api/user/${a.manager.id}`, { token: a.director.token })).status).toBe(200);
    expect((await call('GET', `/api/user/${a.director.id}`, { token: a.manager.token })).status).toBe(404);
    expect((await call('PUT', `/api/user/update/name/${a.director.id}`, { token: a.manager.token, body: { newName: 'Up' } })).status).toBe(404);
    expect((await call('GET', `/api/user/${a.manager.id}`, { token: a.agents[0].token })).status).toBe(404);
    expect((await call('GET', '/api/user/allTeam', { token: a.agents[0].token })).body.map((u: any) => u._id)).toEqual([a.agents[0].id]);
    expect((await getUser(a.agents[0].id))!.name).toBe(a.agents[0].name);
  });
});

describe('a deleted user', () => {
  it('is gone from every list and call, and keeps nothing reachable', async () => {
    const admin = await createUser('admin');
    const a = await createTeam();
    const agent = a.agents[0];
    expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: agent.id } })).status).toBe(200);
    for (const path of [`/api/user/${agent.id}`, `/api/user/childUsers/${agent.id}`])
      expect((await call('GET', path, { token: admin.token })).status).toBe(404);
    expect((await call('PUT', `/api/user/update/name/${agent.id}`, { token: admin.token, body: { newName: 'Ghost' } })).status).toBe(404);
    expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: agent.id } })).status).toBe(404);
    expect((await call('POST', '/api/user/userByEmail', { token: admin.token, body: { email: agent.email } })).status).toBe(404);
    expect((await call('GET', '/api/user', { token: admin.token })).body.map((u: any) => u._id)).not.toContain(agent.id);
    expect((await call('POST', '/api/user/managerChildUsers', { token: a.manager.token, body: { parentId: a.manager.id } })).body).toHaveLength(1);
    // the row stays: its data stays attributed to it
    expect(await getUser(agent.id)).toMatchObject({ name: agent.name, email: agent.email, parentId: a.manager.id });
    // its e-mail may be taken by another user through an e-mail change
    const taken = await call('PUT', `/api/user/update/email/${a.agents[1].id}`, {
      token: a.agents[1].token,
      body: { newEmail: agent.email, currentPassword: PASSWORD },
    });
    expect(taken.status).toBe(200);
  });

  it('the admin cannot delete itself; the admin may delete another admin; an unknown id is 404', async () => {
    const admin = await createUser('admin');
    const other = await createUser('admin');
    const self = await call('DELETE', '/api/user', { token: admin.token, body: { userId: admin.id } });
    expect([self.status, self.body.message]).toEqual([400, 'You cannot delete yourself']);
    expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: 'no-such-user' } })).status).toBe(404);
    expect((await call('DELETE', '/api/user', { token: admin.token, body: {} })).status).toBe(400);
    expect((await call('DELETE', '/api/user', { token: admin.token, body: { userId: other.id } })).status).toBe(200);
    expect((await call('GET', '/api/user/directorsList', { token: other.token })).status).toBe(401);
  });
});

describe('more update rules', () => {
  it('an e-mail change refuses a taken or malformed address and leaves the old one', async () => {
    const a = await createTeam();
    const me = a.agents[0];
    const taken = await call('PUT', `/api/user/update/email/${me.id}`, {
      token: me.token,
      body: { newEmail: a.manager.email.toUpperCase(), currentPassword: PASSWORD },
    });
    expect([taken.status, taken.body.message]).toEqual([409, 'This e-mail is already registered']);
    const bad = await call('PUT', `/api/user/update/email/${me.id}`, { token: me.token, body: { newEmail: 'nope', currentPassword: PASSWORD } });
    expect([bad.status, bad.body.message]).toEqual([400, 'Email is not valid']);
    expect(await getUser(me.id)).toMatchObject({ email: me.email, isEmailVerified: true });
    // a manager changes its agent's e-mail: the new address gets the verification mail
    const fresh = `moved-by-manager-${Date.now()}@t.example`;
    expect((await call('PUT', `/api/user/update/email/${me.id}`, { token: a.manager.token, body: { newEmail: fresh } })).status).toBe(200);
    expect((await outbox()).some((m) => m.to === fresh && m.subject === 'Verify your e-mail')).toBe(true);
    expect((await call('GET', '/api/user', { token: a.manager.token })).body.find((u: any) => u._id === me.id).isEmailVerified).toBe(false);
  });

  it("a manager's password change for its agent ends the agent's sessions and hands out no token", async () => {
    const a = await createTeam();
    const res = await call('PUT', `/api/user/update/password/${a.agents[0].id}`, { token: a.manager.token, body: { newPassword: 'set-by-manager' } });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toBeUndefined();
    expect((await call('GET', `/api/user/${a.agents[0].id}`, { token: a.agents[0].token })).status).toBe(401);
    expect((await call('GET', '/api/user', { token: a.manager.token })).status).toBe(200);
    expect(await loginToken(a.agents[0].email, 'set-by-manager')).toBeTruthy();
  });

  it('type changes take the parent the new role needs', async () => {
    const admin = await createUser('admin');
    const a = await createTeam();
    const marketing = await createUser('marketing');
    const noParent = await call('PUT', `/api/user/update/userType/${marketing.id}`, { token: admin.token, body: { userNewType: 'agent' } });
    expect([noParent.status, noParent.body.message]).toEqual([400, 'Select the parent manager']);
    expect((await getUser(marketing.id))!.userType).toBe('marketing');
    expect(
      (await call('PUT', `/api/user/update/userType/${marketing.id}`, { token: admin.token, body: { userNewType: 'agent', newParent: a.manager.id } })).status,
    ).toBe(200);
    expect(await getUser(marketing.id)).toMatchObject({ userType: 'agent', parentId: a.manager.id, tokenVersion: 1 });
    expect((await call('GET', '/api/user/marketingUsers', { token: marketing.token })).status).toBe(401);
    // an agent made manager under a director, then a manager without agents made agent again
    expect(
      (await call('PUT', `/api/user/update/userType/${marketing.id}`, { token: admin.token, body: { userNewType: 'manager', newParent: a.director.id } }))
        .status,
    ).toBe(200);
    expect(await getUser(marketing.id)).toMatchObject({ userType: 'manager', parentId: a.director.id });
    const wrong = await call('PUT', `/api/user/update/userType/${marketing.id}`, { token: admin.token, body: { userNewType: 'agent' } });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'The parent must be a manager']);
    const bad = await call('PUT', `/api/user/update/userType/${marketing.id}`, { token: admin.token, body: { userNewType: 'king' } });
    expect([bad.status, bad.body.message]).toEqual([400, 'Select the user type']);
    expect((await call('PUT', `/api/user/update/parent/${a.manager.id}`, { token: admin.token, body: { newParent: null } })).status).toBe(200);
    expect((await getUser(a.manager.id))!.parentId).toBeNull();
    expect((await call('PUT', `/api/user/update/parent/${admin.id}`, { token: admin.token, body: { newParent: a.manager.id } })).status).toBe(400);
    expect((await call('PUT', `/api/user/update/parent/${a.agents[0].id}`, { token: admin.token, body: { newParent: null } })).body.message).toBe(
      'Select the parent manager',
    );
  });

  it('Start Trial keeps a later paid end date; Stop Trial leaves a paid end date alone', async () => {
    const admin = await createUser('admin');
    const paid = await createUser('manager', { subscriptionDays: 60 });
    const before = (await getUser(paid.id))!.subscriptionEndDate!.getTime();
    expect((await call('PUT', `/api/user/update/trialPeriodState/${paid.id}`, { token: admin.token, body: { isActive: true } })).body.message).toBe(
      'Trial started',
    );
    expect(await getUser(paid.id)).toMatchObject({ isTrialPeriod: true, subscriptionEndDate: new Date(before) });
    const stopped = await createUser('manager', { subscriptionDays: 60 });
    await call('PUT', `/api/user/update/trialPeriodState/${stopped.id}`, { token: admin.token, body: { isActive: false } });
    expect((await getUser(stopped.id))!.subscriptionEndDate!.getTime()).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    const bad = await call('PUT', `/api/user/update/trialPeriodState/${stopped.id}`, { token: admin.token, body: { isActive: 'yes' } });
    expect([bad.status, bad.body.message]).toEqual([400, 'isActive must be true or false']);
    expect(
      (await call('PUT', `/api/user/update/trialPeriodEndDate/${stopped.id}`, { token: admin.token, body: { newDate: Date.UTC(2032, 0, 2) } })).status,
    ).toBe(200);
    expect((await getUser(stopped.id))!.subscriptionEndDate!.toISOString()).toBe('2032-01-02T00:00:00.000Z');
    expect((await call('PUT', `/api/user/update/trialPeriodEndDate/no-such-user`, { token: admin.token, body: { newDate: '2032-01-02' } })).status).toBe(404);
  });

  it('the admin may leave the phone at the bare calling code; the country is kept', async () => {
    const admin = await createUser('admin');
    const res = await call('POST', '/api/user/register', {
      token: admin.token,
      body: { email: `dir-${Date.now()}@t.example`, password: 'secret1', name: 'Dora Director', newUserType: 'director', phone: '+374', country: 'AM' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ userType: 'director', phone: '', country: 'AM', parent: null, isTrialPeriod: false, subscriptionEndDate: null });
    expect(Object.keys(res.body.user).sort()).toEqual(
      [
        '_id',
        'name',
        'email',
        'userType',
        'isEmailVerified',
        'isTrialPeriod',
        'subscriptionEndDate',
        'registrationDate',
        'date',
        'parent',
        'phone',
        'country',
        'remindersEnabled',
        'language',
      ].sort(),
    );
  });

  it('password and name messages on update; a too long name is refused', async () => {
    const me = await createUser('manager');
    const long = await call('PUT', `/api/user/update/name/${me.id}`, { token: me.token, body: { newName: 'x'.repeat(500) } });
    expect(long.status).toBe(400);
    const missing = await call('PUT', `/api/user/update/password/${me.id}`, { token: me.token, body: {} });
    expect([missing.status, missing.body.message]).toEqual([400, 'Password is empty']);
    expect((await getUser(me.id))!.name).toBe(me.name);
  });
});

describe("re-authentication: changing one's own e-mail or password needs the current password", () => {
  const put = (who: TestUser, what: 'email' | 'password', id: string, body: object) =>
    call('PUT', `/api/user/update/${what}/${id}`, { token: who.token, body });
  const answer = async (p: Promise<{ status: number; body: any }>) => {
    const res = await p;
    return [res.status, res.body.message];
  };

  it("a stolen token alone changes neither: the spec's messages first, then the current password", async () => {
    const me = await createUser('manager');
    const other = await loginToken(me.email);
    // the spec's messages keep their place before the new check
    expect(await answer(put(me, 'email', me.id, { newEmail: '' }))).toEqual([400, 'Email is Empty']);
    expect(await answer(put(me, 'email', me.id, { newEmail: 'nope' }))).toEqual([400, 'Email is not valid']);
    expect(await answer(put(me, 'password', me.id, { newPassword: '' }))).toEqual([400, 'Password is empty']);
    expect(await answer(put(me, 'password', me.id, { newPassword: '123' }))).toEqual([400, 'Password minimum 6 symbols']);
    const thief = `thief-${Date.now()}@evil.example`;
    expect(await answer(put(me, 'email', me.id, { newEmail: thief }))).toEqual([400, 'Current password is empty']);
    expect(await answer(put(me, 'email', me.id, { newEmail: thief, currentPassword: 'guess-1' }))).toEqual([400, 'Current password is wrong']);
    expect(await answer(put(me, 'password', me.id, { newPassword: 'taken-over' }))).toEqual([400, 'Current password is empty']);
    expect(await answer(put(me, 'password', me.id, { newPassword: 'taken-over', currentPassword: 'guess-2' }))).toEqual([400, 'Current password is wrong']);
    // nothing changed, no session ended, no mail went out
    expect(await getUser(me.id)).toMatchObject({ email: me.email, tokenVersion: 0 });
    expect((await outbox()).some((m) => m.to === thief)).toBe(false);
    expect((await call('GET', '/api/subscription/status', { token: other })).status).toBe(200);
    expect(await loginToken(me.email, PASSWORD)).toBeTruthy();

    const changed = await put(me, 'password', me.id, { newPassword: 'my-new-pass', currentPassword: PASSWORD });
    expect([changed.status, changed.body.message]).toEqual([200, 'Password updated']);
    expect(typeof changed.body.accessToken).toBe('string');
  });

  it('the admin changing its own details needs it too; for another user neither the admin nor a manager does', async () => {
    const admin = await createUser('admin');
    const team = await createTeam();
    const agent = team.agents[0];
    expect(await answer(put(admin, 'password', admin.id, { newPassword: 'admin-new-1' }))).toEqual([400, 'Current password is empty']);
    const byAdmin = await put(admin, 'email', agent.id, { newEmail: `by-admin-${Date.now()}@test.example` });
    expect([byAdmin.status, byAdmin.body.accessToken]).toEqual([200, undefined]);
    const byManager = await put(team.manager, 'password', agent.id, { newPassword: 'set-by-manager' });
    expect([byManager.status, byManager.body.accessToken]).toEqual([200, undefined]);
    // a current password sent along for someone else is not checked
    expect((await put(admin, 'password', team.manager.id, { newPassword: 'set-by-admin', currentPassword: 'whatever' })).status).toBe(200);
    expect(await loginToken(team.manager.email, 'set-by-admin')).toBeTruthy();
  });

  it("an e-mail change by the admin ends the user's sessions and tells the old address who changed it", async () => {
    const admin = await createUser('admin');
    const user = await createUser('agent');
    const newEmail = `renamed-${Date.now()}@test.example`;
    expect((await put(admin, 'email', user.id, { newEmail })).status).toBe(200);
    expect((await call('GET', '/api/subscription/status', { token: user.token })).status).toBe(401);
    const notice = (await outbox()).find((m) => m.to === user.email && m.subject === 'Your FreightDesk e-mail address was changed');
    expect(notice?.text).toContain(`from ${user.email} to ${newEmail}`);
    expect(notice?.text).toContain('by your administrator or team manager');
  });
});
