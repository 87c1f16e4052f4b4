import { call, createTeam, type TestUser } from './helpers';

/** An MC setting added through the API: a lead's own, or an agent's pointing at one (`parentMc`). */
export async function addMc(user: TestUser, body: Record<string, unknown>) {
  const res = await call('POST', '/api/mcSettings/add/', { token: user.token, body });
  if (res.status !== 200) throw new Error(`add MC: ${res.status} ${res.text}`);
  return res.body.mcSetting._id as string;
}

/** The filter types the user's team sees (its defaults are written on the first read). */
export async function typesOf(user: TestUser) {
  return (await call('GET', '/api/user/filterOverrides', { token: user.token })).body as { _id: string; typeName: string }[];
}

/** A team with two manager MCs (A on line 1, B on line 2); agent 0 uses A, agent 1 uses A and B. On `shard` when given. */
export async function teamWithMcs(shard?: string) {
  const team = await createTeam(shard);
  const mcA = await addMc(team.manager, { name: 'MC Alpha', lines: [1] });
  const mcB = await addMc(team.manager, { name: 'MC Beta', lines: [2] });
  await addMc(team.agents[0], { parentMc: mcA, lines: [1] });
  await addMc(team.agents[1], { parentMc: mcA, lines: [1] });
  await addMc(team.agents[1], { parentMc: mcB, lines: [2] });
  const types = await typesOf(team.manager);
  return { ...team, mcA, mcB, types };
}

/**
 * The filter modal's body (POST /api/broker/add, /api/broker/update/details) with the team's
 * first type: a team filter on every MC for no listed user; `fields` over these.
 */
export const filterSave = (t: { types: { _id: string }[] }, fields: Record<string, unknown> = {}) => ({
  updateFilterId: null,
  name: 'Acme Logistics',
  type: t.types[0]!._id,
  comment: '',
  onlyCreator: false,
  allMC: true,
  mcList: [] as string[],
  usersList: [] as string[],
  onlyOnContacts: false,
  contacts: [] as string[],
  newUsers: false,
  isVisible: true,
  ...fields,
});

/** Adds a filter through the API and answers its id. */
export async function addFilter(user: TestUser, body: Record<string, unknown>) {
  const res = await call('POST', '/api/broker/add', { token: user.token, body });
  if (res.status !== 200) throw new Error(`add filter: ${res.status} ${res.text}`);
  return res.body._id as string;
}
