// `npm run test:scripts` (node --test): the FMCSA stand-in's start when its port is taken (issue 43
// item 6). Before, listen() had no error handler: a taken port was an unhandled 'error' event that
// ended `npm start` with a stack trace, and the start script's own "is taken" branch never ran.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import { STAND_IN_WEBKEY, startDevStandIn, startFmcsaStandIn } from './fmcsa-stand-in.mjs';

const stops = [];
after(() => Promise.all(stops.map((stop) => stop())));

/** Holds a free loopback port, as another checkout's server would. */
async function occupy() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => new Promise((resolve) => server.close(resolve)));
  return server.address().port;
}

/** The stand-in answers QCMobile's call for a built-in broker at `url`. */
async function answers(url) {
  const res = await fetch(`${url}carriers/2000001?webKey=${STAND_IN_WEBKEY}`);
  assert.equal(res.status, 200);
  assert.equal((await res.json()).content.carrier.legalName, 'ACTIVE BOND BROKERAGE LLC');
}

test('a taken port rejects with EADDRINUSE instead of ending the process', async () => {
  const port = await occupy();
  await assert.rejects(startFmcsaStandIn({ port }), { code: 'EADDRINUSE' });
});

test("npm start's stand-in takes the port it is given, and says where in one line", async () => {
  // a port that was free a moment ago: what `npm start` asks for (PORT + 3)
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const free = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  const lines = [];
  const standIn = await startDevStandIn({ port: free, log: (line) => lines.push(line) });
  stops.push(standIn.stop);
  assert.equal(standIn.url, `http://127.0.0.1:${free}/qc/services/`);
  assert.deepEqual(lines, [`FMCSA stand-in on http://127.0.0.1:${free}/qc/services/`]);
  await answers(standIn.url);
});

test('a taken port: one clear line, a free port instead, and the URL the Worker is given follows it', async () => {
  const port = await occupy();
  const lines = [];
  const standIn = await startDevStandIn({ port, path: '/qc/services/', log: (line) => lines.push(line) });
  stops.push(standIn.stop);
  assert.notEqual(standIn.port, port);
  assert.equal(standIn.url, `http://127.0.0.1:${standIn.port}/qc/services/`);
  assert.deepEqual(lines, [`FMCSA stand-in on ${standIn.url} (port ${port} is taken)`]);
  await answers(standIn.url);
});

test('two checkouts asking for the same port both get a stand-in that answers', async () => {
  const port = await occupy();
  const [a, b] = await Promise.all([1, 2].map(() => startDevStandIn({ port, log: () => {} })));
  stops.push(a.stop, b.stop);
  assert.notEqual(a.port, b.port);
  await Promise.all([answers(a.url), answers(b.url)]);
});
