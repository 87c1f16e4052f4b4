// A local stand-in for FMCSA's QCMobile API (https://mobile.fmcsa.dot.gov/qc/services/), for
// development and the tests: it answers the three calls the product makes in QCMobile's JSON
// shape (docs/decisions/0170-fmcsa-stand-in.md, for the sources):
//   GET /qc/services/carriers/{dot}?webKey=             {content: {_links, carrier: {…}}, retrievalDate}
//   GET /qc/services/carriers/docket-number/{mc}?webKey= {content: [{_links, carrier}], retrievalDate}
//   GET /qc/services/carriers/{dot}/authority?webKey=   {content: [{carrierAuthority: {…}, _links}], retrievalDate}
// A wrong webKey answers 404 {"content": "Webkey not found"}, as QCMobile does; an unknown DOT
// answers 200 with content null, an unknown docket an empty list.
// Brokers in every state are built in (BROKERS below). Numbers from 2999000 on misbehave:
// 2999408 never answers (a timeout), 2999429 answers 429, 2999500 answers 503.
// The tests add brokers and faults of their own through its control calls:
//   PUT  /__control/carriers/{dot}  {legalName, mcNumber, brokerAuthorityStatus, bondInsuranceOnFile, …}
//   PUT  /__control/faults/{dot}    {mode: "ok" | "timeout" | "429" | "503"}
//   GET  /__control/calls?dot=…     [{path, at}] every call made for that DOT or MC
// Run it alone with `node scripts/fmcsa-stand-in.mjs` (port 8790, or FMCSA_STAND_IN_PORT);
// `npm start` and `npm run dev` start it when FMCSA_URL points at the loopback address
// (startDevStandIn below: `npm start` on PORT + 3, or on a free port when that one is taken).
import http from 'node:http';
import { pathToFileURL } from 'node:url';

export const STAND_IN_WEBKEY = 'local-fmcsa-stand-in-key';
const HOST = 'https://mobile.fmcsa.dot.gov/qc/services';

/** A carrier record as QCMobile sends it (field names and kinds from its captured answers). */
function carrierRecord(dot, b) {
  return {
    allowedToOperate: b.allowedToOperate ?? (b.brokerAuthorityStatus === 'A' ? 'Y' : 'N'),
    bipdInsuranceOnFile: b.bipdInsuranceOnFile ?? '0',
    bipdInsuranceRequired: b.bipdInsuranceRequired ?? 'N',
    bipdRequiredAmount: b.bipdRequiredAmount ?? '0',
    bondInsuranceOnFile: b.bondInsuranceOnFile ?? '75',
    bondInsuranceRequired: b.bondInsuranceRequired ?? 'Y',
    brokerAuthorityStatus: b.brokerAuthorityStatus ?? 'A',
    cargoInsuranceOnFile: '0',
    cargoInsuranceRequired: 'u',
    carrierOperation: { carrierOperationCode: 'A', carrierOperationDesc: 'Interstate' },
    censusTypeId: { censusType: 'B', censusTypeDesc: 'BROKER', censusTypeId: 2 },
    commonAuthorityStatus: b.commonAuthorityStatus ?? 'N',
    contractAuthorityStatus: b.contractAuthorityStatus ?? 'N',
    crashTotal: 0,
    dbaName: b.dbaName ?? null,
    dotNumber: Number(dot),
    ein: null,
    isPassengerCarrier: 'N',
    issScore: null,
    legalName: b.legalName,
    mcs150Outdated: 'N',
    oosDate: b.oosDate ?? null,
    phyCity: b.phyCity ?? 'CHICAGO',
    phyCountry: 'US',
    phyState: b.phyState ?? 'IL',
    phyStreet: b.phyStreet ?? '100 MAIN ST',
    phyZipcode: b.phyZipcode ?? '60601',
    safetyRating: null,
    statusCode: b.statusCode ?? (b.oosDate ? 'I' : 'A'),
    totalDrivers: 0,
    totalPowerUnits: 0,
  };
}

const links = (dot) => ({
  basics: { href: `${HOST}/carriers/${dot}/basics` },
  'docket numbers': { href: `${HOST}/carriers/${dot}/docket-numbers` },
  'carrier active-For-hire authority': { href: `${HOST}/carriers/${dot}/authority` },
  self: { href: `${HOST}/carriers/${dot}` },
});

/** The built-in brokers, one per state the product shows (development and the browser tests). */
export const BROKERS = {
  2000001: { legalName: 'ACTIVE BOND BROKERAGE LLC', mcNumber: '700001', brokerAuthorityStatus: 'A', bondInsuranceOnFile: '75' },
  2000002: { legalName: 'REVOKED AUTHORITY LOGISTICS INC', mcNumber: '700002', brokerAuthorityStatus: 'I', bondInsuranceOnFile: '0' },
  2000003: { legalName: 'NO BOND FREIGHT LLC', mcNumber: '700003', brokerAuthorityStatus: 'A', bondInsuranceOnFile: '0' },
  2000004: { legalName: 'OUT OF SERVICE TRANSPORT CO', mcNumber: '700004', brokerAuthorityStatus: 'I', bondInsuranceOnFile: '0', oosDate: '2026-09-01' },
  2000005: {
    legalName: 'CARRIER AND BROKER EXPRESS INC',
    mcNumber: '700005',
    brokerAuthorityStatus: 'A',
    commonAuthorityStatus: 'A',
    contractAuthorityStatus: 'A',
    bondInsuranceOnFile: '75',
    bipdInsuranceOnFile: '1000',
    bipdInsuranceRequired: 'Y',
    bipdRequiredAmount: '750',
  },
};

/** Starts the stand-in on 127.0.0.1 (port 0: a free one); answers its base URL (…/qc/services/) and a stop function. */
export async function startFmcsaStandIn({ port = 0, webKey = STAND_IN_WEBKEY } = {}) {
  const brokers = new Map(Object.entries(BROKERS).map(([dot, b]) => [dot, { ...b }]));
  const faults = new Map([
    ['2999408', 'timeout'],
    ['2999429', '429'],
    ['2999500', '503'],
  ]);
  const calls = new Map();
  const hanging = new Set();
  const record = (id, path) => calls.set(id, [...(calls.get(id) ?? []), { path, at: Date.now() }]);
  const send = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
    res.end(JSON.stringify(body));
  };
  const envelope = (content) => ({ content, retrievalDate: new Date().toISOString().replace('Z', '+0000') });
  const byDocket = (mc) => [...brokers].find(([, b]) => String(b.mcNumber) === String(mc));

  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname;
    try {
      const control = /^\/__control\/(carriers|faults)\/(\d+)$/.exec(path);
      if (req.method === 'PUT' && control) {
        const body = JSON.parse(raw || '{}');
        if (control[1] === 'carriers') brokers.set(control[2], { ...(brokers.get(control[2]) ?? {}), ...body });
        else faults.set(control[2], body.mode);
        return send(res, 200, { ok: true });
      }
      if (req.method === 'GET' && path === '/__control/calls') return send(res, 200, calls.get(url.searchParams.get('dot') ?? '') ?? []);

      const m = /^\/qc\/services\/carriers\/(?:(docket-number)\/(\d+)|(\d+)(\/authority)?)\/?$/.exec(path);
      if (req.method !== 'GET' || !m) return send(res, 404, envelope('Not found'));
      const docket = m[1] ? m[2] : null;
      const found = docket ? byDocket(docket) : null;
      const dot = docket ? (found?.[0] ?? null) : m[3];
      record(docket ?? dot, path);
      if (url.searchParams.get('webKey') !== webKey) return send(res, 404, { content: 'Webkey not found', retrievalDate: envelope(null).retrievalDate });
      const fault = (dot && faults.get(dot)) || (docket && faults.get(docket));
      if (fault === 'timeout') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (fault === '429') return send(res, 429, envelope('Too Many Requests'));
      if (fault === '503') return send(res, 503, envelope('Service Unavailable'));
      if (docket) return send(res, 200, envelope(found ? [{ _links: links(found[0]), carrier: carrierRecord(found[0], found[1]) }] : []));
      const broker = brokers.get(dot);
      if (m[4]) {
        if (!broker) return send(res, 200, envelope([]));
        return send(
          res,
          200,
          envelope([
            {
              carrierAuthority: {
                applicantID: Number(dot) % 100000,
                authority: 'N',
                authorizedForBroker: broker.brokerAuthorityStatus === 'A' ? 'Y' : 'N',
                authorizedForHouseholdGoods: 'N',
                authorizedForPassenger: 'N',
                authorizedForProperty: broker.commonAuthorityStatus === 'A' ? 'Y' : 'N',
                brokerAuthorityStatus: broker.brokerAuthorityStatus ?? 'A',
                commonAuthorityStatus: broker.commonAuthorityStatus ?? 'N',
                contractAuthorityStatus: broker.contractAuthorityStatus ?? 'N',
                docketNumber: Number(broker.mcNumber),
                dotNumber: Number(dot),
                prefix: 'MC',
              },
              _links: { self: { href: `${HOST}/carriers/${dot}/authority/${Number(dot) % 100000}` } },
            },
          ]),
        );
      }
      if (!broker) return send(res, 200, envelope(null));
      return send(res, 200, envelope({ _links: links(dot), carrier: carrierRecord(dot, broker) }));
    } catch (err) {
      send(res, 400, { message: String(err) });
    }
  });
  // a taken port rejects (err.code 'EADDRINUSE') instead of an unhandled 'error' event that ends the process
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const { port: bound } = server.address();
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}/qc/services/`,
    control: `http://127.0.0.1:${bound}/__control`,
    webKey,
    stop: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(resolve);
      }),
  };
}

/**
 * The stand-in of `npm start` (scripts/start.mjs): on `port` (PORT + 3: 8790 beside the default
 * 8787, so two checkouts on their own PORTs each have theirs), else, when that port is taken (a
 * second checkout, PORT=8790), on a free one. One line says where. Answers the stand-in and the
 * FMCSA_URL the Worker must be given (`path` kept from the configured FMCSA_URL).
 */
export async function startDevStandIn({ port, webKey, path = '/qc/services/', log = console.log }) {
  const wanted = Number.isInteger(port) && port > 0 && port < 65536 ? port : 0;
  let standIn;
  let taken = false;
  try {
    standIn = await startFmcsaStandIn({ port: wanted, webKey });
  } catch (err) {
    if (err?.code !== 'EADDRINUSE') throw err;
    taken = true;
    standIn = await startFmcsaStandIn({ port: 0, webKey });
  }
  const url = `http://127.0.0.1:${standIn.port}${path}`;
  log(`FMCSA stand-in on ${url}${taken ? ` (port ${wanted} is taken)` : ''}`);
  return { ...standIn, url };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.env.FMCSA_STAND_IN_PORT ?? 8790);
  try {
    const standIn = await startFmcsaStandIn({ port });
    console.log(`FMCSA stand-in on ${standIn.url} (webKey ${standIn.webKey})`);
    setInterval(() => {}, 1 << 30);
  } catch (err) {
    if (err?.code !== 'EADDRINUSE') throw err;
    console.error(`FMCSA stand-in not started: port ${port} is taken (set FMCSA_STAND_IN_PORT to another)`);
    process.exitCode = 1;
  }
}
