/**
 * The browser tests' `test`: Playwright's, with what the files share made once per worker process
 * instead of once per test or file. Each of the two worker processes runs its files one after
 * another; a failed test restarts its worker, and with it all of these.
 *
 * - `context` (and so `page`): one browser context for the tests one after another, emptied
 *   between them (pages, local storage, cookies, permissions, routes, offline) but keeping its HTTP
 *   cache, so a test's first screen does not fetch and compile the SPA's scripts again (a new
 *   context costs 30 requests and a second of CPU). A test whose options differ (`test.use`) gets
 *   a context of its own.
 * - `ownServer`: a Worker of the tests' own on Miniflare in this process, which a test may stop and
 *   start again (the offline queue, the live fallback), mailing through the Resend stub and vetting
 *   through the FMCSA stand-in. Each file makes its own team on it; the database holds the files
 *   this worker ran before it.
 * - `standIns`: the stub and the stand-in, for the tests that tell them what to answer.
 * - `ownExtension`: the extension built for `ownServer` (a folder to load in Chromium).
 */
import fs from 'node:fs';
import { type BrowserContext, type BrowserContextOptions, test as base } from '@playwright/test';
import { startFmcsaStandIn } from '../scripts/fmcsa-stand-in.mjs';
import { startMailStub } from '../scripts/mail-stub.mjs';
import { buildExtensionFor, Server } from './extension-harness';

export { expect } from '@playwright/test';

// Node's fetch (undici) may write a test's call on a kept-alive connection workerd is closing at
// that moment, and fail it with "other side closed" before any answer (seen 3 times in a run of
// 172 tests under a load of 20). Chromium sends such a request again by itself; the tests' own
// calls do too, once. A call that did reach the Worker and is sent again shows as a refusal.
const nodeFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  try {
    return await nodeFetch(input, init);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    return nodeFetch(input, init);
  }
};

interface StandIns {
  mail: Awaited<ReturnType<typeof startMailStub>>;
  fmcsa: Awaited<ReturnType<typeof startFmcsaStandIn>>;
}

/** The worker's reusable context and the options it was made with. */
interface Reusable {
  context: BrowserContext | null;
  key: string;
}

/** Leaves the context as a new one would be, but for its HTTP cache. */
async function empty(context: BrowserContext, options: BrowserContextOptions) {
  const { origins } = await context.storageState();
  for (const page of context.pages()) await page.close();
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.clearCookies();
  await context.clearPermissions();
  if (options.permissions) await context.grantPermissions(options.permissions);
  await context.setOffline(!!options.offline);
  if (!origins.length) return;
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  for (const { origin } of origins)
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage,indexeddb,service_workers,cache_storage' });
  await cdp.detach();
  await page.close();
}

export const test = base.extend<
  { _contextOptions: BrowserContextOptions },
  { _reusable: Reusable; standIns: StandIns; ownServer: Server; ownExtension: string }
>({
  _reusable: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const reusable: Reusable = { context: null, key: '' };
      await use(reusable);
      await reusable.context?.close();
    },
    { scope: 'worker' },
  ],
  // the options Playwright's own context fixture would pass (its defaults, the config's `use`, the file's `test.use`)
  _contextOptions: async (
    {
      acceptDownloads,
      bypassCSP,
      colorScheme,
      deviceScaleFactor,
      extraHTTPHeaders,
      geolocation,
      hasTouch,
      httpCredentials,
      ignoreHTTPSErrors,
      isMobile,
      javaScriptEnabled,
      locale,
      offline,
      permissions,
      proxy,
      storageState,
      timezoneId,
      userAgent,
      viewport,
      baseURL,
      serviceWorkers,
      contextOptions,
    },
    use,
  ) => {
    const options: BrowserContextOptions = {
      acceptDownloads,
      bypassCSP,
      colorScheme,
      deviceScaleFactor,
      extraHTTPHeaders,
      geolocation,
      hasTouch,
      httpCredentials,
      ignoreHTTPSErrors,
      isMobile,
      javaScriptEnabled,
      locale,
      offline,
      permissions,
      proxy,
      storageState,
      timezoneId,
      userAgent,
      viewport,
      baseURL,
      serviceWorkers,
    };
    for (const key of Object.keys(options) as (keyof BrowserContextOptions)[]) if (options[key] === undefined) delete options[key];
    await use({ ...contextOptions, ...options });
  },
  context: async ({ browser, _reusable, _contextOptions }, use) => {
    const key = JSON.stringify(_contextOptions);
    if (_reusable.key !== key) {
      await _reusable.context?.close();
      _reusable.context = await browser.newContext(_contextOptions);
      _reusable.key = key;
    }
    const context = _reusable.context!;
    await use(context);
    await empty(context, _contextOptions);
  },
  standIns: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const mail = await startMailStub();
      const fmcsa = await startFmcsaStandIn();
      await use({ mail, fmcsa });
      await mail.stop();
      await fmcsa.stop();
    },
    { scope: 'worker' },
  ],
  ownServer: [
    async ({ standIns: { mail, fmcsa } }, use) => {
      // MAIL_RETRY_SECONDS 1: a refused mail is retried within the test (1, 2, 4 s)
      const server = await Server.create({
        MAIL_PROVIDER: 'resend',
        MAIL_API_URL: `${mail.url}/emails`,
        MAIL_API_KEY: mail.apiKey,
        MAIL_RETRY_SECONDS: '1',
        FMCSA_URL: fmcsa.url,
        FMCSA_WEBKEY: fmcsa.webKey,
      });
      await use(server);
      await server.dispose();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
  ownExtension: [
    async ({ ownServer }, use) => {
      const dir = await buildExtensionFor(ownServer.url);
      await use(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});
