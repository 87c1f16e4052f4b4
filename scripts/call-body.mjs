// A logged contact as the tests and benchmarks send it (POST /api/callHistory/log): a call to
// Total Quality Logistics on Chicago to Dallas; every field the caller names replaces the sample's.
export const callBody = (fields) => ({
  kind: 'call',
  contact: '+1 (312) 555-0142',
  brokerName: 'Total Quality Logistics',
  address: '4289 Ivy Pointe Blvd, Cincinnati, OH',
  origin: 'Chicago, IL',
  dest: 'Dallas, TX',
  ...fields,
});
