/// <reference lib="dom" />
/**
 * What the extension's browser test needs besides Playwright's own server: a Worker of its own it
 * can stop and start again on the same local database (the offline queue), the extension built for
 * that server, a local HTTPS copy of DAT's load search served as one.dat.com, and Chromium with the
 * extension loaded.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Worker } from '@playwright/test';
import type { Miniflare } from 'miniflare';
import { CHROMIUM_FLAGS } from '../scripts/chromium-flags.mjs';
import { filterBody } from '../scripts/filter-body.mjs';
import { migrateLocal } from '../scripts/migrate-local.mjs';
import { bundleWorker, startMiniflare } from '../scripts/miniflare-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');

/** A free port on the loopback address. */
async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Puts the migrated empty databases (the control plane and each shard) into `state` (a
 * `--persist-to` folder): a copy of the ones playwright.config.ts migrated for the run
 * (E2E_MIGRATED); without them (a script of its own), migrates.
 */
export async function migratedDatabase(state: string) {
  const migrated = process.env.E2E_MIGRATED;
  if (migrated && fs.existsSync(migrated)) fs.cpSync(migrated, state, { recursive: true });
  else await migrateLocal(state);
}

/** The local databases every row lives in: the control plane and the company shards (decision 0174). */
const LOCAL_DATABASES = ['DB', 'SHARD_1', 'SHARD_2', 'SHARD_3'];

/**
 * The rows a query answers in every database of a running server, one list (a user's rows are in
 * its company's shard): read through the server's own D1 bindings, as the Worker sees them.
 */
export async function rowsEverywhere<T>(server: Server, query: string): Promise<T[]> {
  const mf = server.miniflare;
  if (!mf) throw new Error('the server is stopped');
  const rows = await Promise.all(LOCAL_DATABASES.map(async (db) => (await (await mf.getD1Database(db)).prepare(query).all<T>()).results));
  return rows.flat();
}

/**
 * The Worker's bundle for this run: the one playwright.config.ts made (E2E_STATE/worker), or one
 * of this process's own (a script run alone).
 */
let ownBundle: string | null = null;
function workerBundle(): string {
  const made = process.env.E2E_STATE && path.join(process.env.E2E_STATE, 'worker');
  if (made && fs.existsSync(path.join(made, 'index.js'))) return path.join(made, 'index.js');
  ownBundle ??= bundleWorker(fs.mkdtempSync(path.join(os.tmpdir(), 'fd-worker-')));
  return ownBundle;
}

/**
 * The Worker on Miniflare in this process (scripts/miniflare-server.mjs: no dev proxy), on
 * 127.0.0.1, with a database folder that outlives a stop.
 */
export class Server {
  miniflare: Miniflare | null = null;
  private constructor(
    public port: number,
    readonly state: string,
    private readonly assets: string | null,
    /** Settings over .dev.vars.example, e.g. another mail provider. */
    private readonly vars: Record<string, string> = {},
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  static async create(vars: Record<string, string> = {}): Promise<Server> {
    const port = await freePort();
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-ext-'));
    // the SPA build playwright.config.ts made for this run (or web/dist with E2E_SKIP_BUILD)
    const candidates = [process.env.E2E_STATE && path.join(process.env.E2E_STATE, 'dist'), path.join(ROOT, 'web', 'dist')].filter(Boolean) as string[];
    const assets = candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? null;
    const server = new Server(port, state, assets, vars);
    await migratedDatabase(state);
    try {
      await server.start();
    } catch {
      // another process took the port between the look and the start: once more on a new one
      await server.stop();
      server.port = await freePort();
      await server.start();
    }
    return server;
  }

  /** Starts the Worker on the same port and database; resolves once it answers. */
  async start() {
    this.miniflare = await startMiniflare({
      port: this.port,
      scriptPath: workerBundle(),
      persistTo: this.state,
      assets: this.assets ?? undefined,
      vars: { PUBLIC_URL: this.url, DISABLE_RATE_LIMITS: 'true', ...this.vars },
    });
  }

  /** Stops the server (its database stays); the port answers nothing once this resolves. */
  async stop() {
    const mf = this.miniflare;
    this.miniflare = null;
    await mf?.dispose();
  }

  async dispose() {
    await this.stop();
    fs.rmSync(this.state, { recursive: true, force: true });
  }
}

/** Calls the API of `server` as a client would. */
export async function api<T = any>(server: Server, method: string, urlPath: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${server.url}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: json };
}

/** `api` for set-up steps that must succeed: a refused call throws with its status and body. */
export async function apiOk<T = any>(server: Server, method: string, urlPath: string, body?: unknown, token?: string): Promise<T> {
  const res = await api<T>(server, method, urlPath, body, token);
  if (res.status >= 300) throw new Error(`${method} ${urlPath}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The password of the users `devUser` makes. */
export const DEV_PASSWORD = 'agent-pass-1';

/** A user made through the development route, with a web sign-in's token (`parentId` puts it in a team). */
export async function devUser(
  server: Server,
  user: { userType: 'admin' | 'director' | 'manager' | 'marketing' | 'agent'; email: string; name: string; parentId?: string },
): Promise<{ id: string; email: string; name: string; token: string }> {
  const made = await apiOk(server, 'POST', '/api/dev/users', { ...user, password: DEV_PASSWORD });
  const { accessToken } = await apiOk(server, 'POST', '/api/auth/login', { email: made.email, password: DEV_PASSWORD, clientType: 0 });
  return { id: made._id, email: made.email, name: user.name, token: accessToken };
}

/** An MC setting (a manager's own by `name`, or an agent's on the manager's by `parentMc`); its id. */
export async function addMc(server: Server, token: string, body: Record<string, unknown>): Promise<string> {
  return (await apiOk(server, 'POST', '/api/mcSettings/add/', body, token)).mcSetting._id;
}

/**
 * A manager's filter for one agent, as the filter form sends it: the filter types by name
 * (`type: 'Blocked'`), every field the test does not name at the form's default.
 */
export async function teamFilters(server: Server, managerToken: string, agentId: string) {
  const types = await api<{ _id: string; typeName: string }[]>(server, 'GET', '/api/user/filterOverrides', undefined, managerToken);
  return async (body: Record<string, unknown> & { type: string }) => {
    const type = types.body.find((t) => t.typeName === body.type)?._id;
    if (!type) throw new Error(`no filter type ${body.type}`);
    const form = filterBody({ updateFilterId: null, allMC: false, usersList: [agentId], ...body, type });
    return apiOk(server, 'POST', '/api/broker/add', form, managerToken);
  };
}

/** Builds the extension for `apiUrl` into a fresh folder (no zip). */
export async function buildExtensionFor(apiUrl: string): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-ext-build-'));
  const { buildExtension } = (await import(path.join(ROOT, 'extension', 'build.mjs'))) as {
    buildExtension: (o: { apiUrl: string; outDir: string; zip: null; quiet: boolean }) => Promise<unknown>;
  };
  await buildExtension({ apiUrl, outDir, zip: null, quiet: true });
  return outDir;
}

let certificate: { key: Buffer; cert: Buffer } | null = null;
/** A certificate for one.dat.com and main.truckstop.com (openssl), made once per process. */
function boardCertificate() {
  if (certificate) return certificate;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-cert-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=one.dat.com',
      '-addext',
      'subjectAltName=DNS:one.dat.com,DNS:main.truckstop.com',
    ],
    { stdio: 'ignore' },
  );
  certificate = { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
  fs.rmSync(dir, { recursive: true, force: true });
  return certificate;
}

/**
 * Serves a board from e2e/fixtures/<fixture> (default `dat`, the first board) over HTTPS as
 * one.dat.com and main.truckstop.com. Paths without a dot (`/search-loads`, `/app/search/loads`)
 * answer with the board's page: `index.html` for `dat`, `search-loads.html` for the others
 * (`dat-one`, `truckstop`); other files by name.
 */
export async function serveBoard(fixture = 'dat'): Promise<{ port: number; close: () => Promise<void> }> {
  const fixtures = path.join(ROOT, 'e2e', 'fixtures', path.basename(fixture));
  const page = fixture === 'dat' ? 'index.html' : 'search-loads.html';
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };
  const server = https.createServer(boardCertificate(), (req, res) => {
    const url = new URL(req.url ?? '/', 'https://one.dat.com');
    const name = path.basename(url.pathname);
    const file = path.join(fixtures, name.includes('.') ? name : page);
    if (!fs.existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Chromium with the extension loaded: a persistent context (content scripts do not run in a
 * non-persistent one), the real binary (/usr/bin/chromium is a shell wrapper), new headless mode,
 * and one.dat.com (and main.truckstop.com) mapped to the local board servers.
 */
export async function launchWithExtension(
  extensionDir: string,
  boardPort: number,
  /** The port of a `serveBoard('truckstop')` server, mapped to main.truckstop.com. */
  truckstopPort?: number,
): Promise<{ context: BrowserContext; worker: Worker; extensionId: string; close: () => Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_BINARY ?? '/usr/lib/chromium/chromium',
    headless: false,
    ignoreDefaultArgs: ['--disable-extensions'],
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless=new',
      ...CHROMIUM_FLAGS,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      `--host-resolver-rules=MAP one.dat.com 127.0.0.1:${boardPort}${truckstopPort ? `, MAP main.truckstop.com 127.0.0.1:${truckstopPort}` : ''}`,
      '--ignore-certificate-errors',
    ],
  });
  // this Chromium has no phone or mail app: handing it a tel:, dialpad:, aircall: or mailto: link
  // opens the external-protocol prompt, which takes the page's keyboard (an Escape pressed later
  // never reaches the board, so the FD menu stays open). The link's default action stops here;
  // the extension's own click handler, which logs the call, still runs, and tests assert each
  // link's href before clicking it.
  await context.addInitScript(() => {
    window.addEventListener(
      'click',
      (e) => {
        const link = (e.target as Element | null)?.closest?.('a[href]');
        if (link && !/^(https?|chrome-extension):/i.test(link.getAttribute('href') ?? '')) e.preventDefault();
      },
      true,
    );
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    worker,
    extensionId,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
