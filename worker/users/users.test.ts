import { describe, expect, it } from 'vitest';
import { call, countRows, createTeam, createUser, getUser, loginToken, outbox, PASSWORD, tokenFromMail } from '../test/helpers';

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
    const dup = await call('POST', '/api/user/register', { token: manager.token, body: { email: manager.email, password: 'secret1', name: 'Dup' } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('This e-mail is already registered');
    expect(await countRows('users')).toBe(before);
  });

  it('the admin creates any type, agents under a manager, managers under a director', async () => {
    const admin = await createUser('admin');
    const a = await createTeam();
    const mk = (body: object) => call('POST', '/api/user/register', { token: admin.token, body: { password: 'secret1', name: 'N', email: `u${Math.random()}@t.example`, ...body } });
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
    expect((await call('PUT', `/api/user/update/email/${user.id}`, { token: user.token, body: { newEmail } })).status).toBe(200);
    const row = (await getUser(user.id))!;
    expect(row.email).toBe(newEmail);
    expect(row.isEmailVerified).toBe(false);
    const hash = await tokenFromMail(newEmail, 'emailVerify');
    expect((await call('GET', `/api/user/verify/${hash}`)).status).toBe(200);
    expect((await getUser(user.id))!.isEmailVerified).toBe(true);

    expect((await call('PUT', `/api/user/update/password/${user.id}`, { token: user.token, body: { newPassword: '' } })).body.message).toBe('Password is empty');
    expect((await call('PUT', `/api/user/update/password/${user.id}`, { token: user.token, body: { newPassword: '123' } })).body.message).toBe('Password minimum 6 symbols');
    const changed = await call('PUT', `/api/user/update/password/${user.id}`, { token: user.token, body: { newPassword: 'brand-new-pass' } });
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
    expect((await call('PUT', `/api/user/update/password/${a.agents[0].id}`, { token: a.director.token, body: { newPassword: 'hijacked1' } })).status).toBe(403);
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
    expect((await call('PUT', `/api/user/update/parent/${agent.id}`, { token: admin.token, body: { newParent: other.director.id } })).body.message).toBe('The parent must be a manager');

    const res = await call('PUT', `/api/user/update/userType/${a.agents[1].id}`, { token: admin.token, body: { userNewType: 'marketing' } });
    expect(res.status).toBe(200);
    expect((await getUser(a.agents[1].id))).toMatchObject({ userType: 'marketing', parentId: null });
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
    expect((await call('PUT', `/api/user/update/trialPeriodEndDate/${user.id}`, { token: admin.token, body: { newDate: 'not a date' } })).body.message).toBe('Choose a valid date');
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
    expect((await call('PUT', `/api/user/resendEmailVerification/${verified.id}`, { token: verified.token })).body.message).toBe('This e-mail is already verified');
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
