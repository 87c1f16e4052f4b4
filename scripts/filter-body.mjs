// The filter modal's body as the tests and benchmarks send it (POST /api/broker/add and
// /update/details): every field the caller does not name at the form's default, which is a team
// filter on every MC for no listed user, active, with no contacts. The worker tests' own is
// filterSave in worker/test/filters.ts.
export const filterBody = (fields) => ({
  comment: '',
  onlyCreator: false,
  allMC: true,
  mcList: [],
  usersList: [],
  onlyOnContacts: false,
  contacts: [],
  newUsers: false,
  isVisible: true,
  ...fields,
});
