// The SPA's weight and Lighthouse performance for the login page and /users (as admin), in
// Debian's Chromium, with Lighthouse's desktop preset (simulated 40 ms RTT, 10 Mbit/s): the
// product is a desktop tool for broker offices. Weight = gzip size of every JS and CSS file the page loads.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../scripts/chromium-flags.mjs';
import { webSession } from '../scripts/web-session.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

/** Gzip bytes of the JS and CSS a page loads, as the browser saw them. */
async function weigh(browser, url, login, pagePath) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const assets = new Map();
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    try {
      assets.set(res.url(), { type, bytes: gzipSync(await res.body(), { level: 9 }).length });
    } catch {
      // a redirect or an aborted load has no body
    }
  });
  if (login) {
    await page.goto(`${url}/help`);
    await page.evaluate((data) => localStorage.setItem('userData', JSON.stringify(data)), webSession(login));
    assets.clear();
  }
  await page.goto(`${url}${pagePath}`, { waitUntil: 'networkidle' });
  await context.close();
  let jsGzip = 0;
  let cssGzip = 0;
  for (const a of assets.values()) {
    if (a.type === 'script') jsGzip += a.bytes;
    else cssGzip += a.bytes;
  }
  return { jsGzip, cssGzip, files: assets.size };
}

async function lighthouseScore(url, login, pagePath, work) {
  const userDataDir = path.join(work, `lh-profile-${Date.now()}`);
  fs.mkdirSync(userDataDir, { recursive: true });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS, userDataDir });
  try {
    if (login) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const page = await browser.contexts()[0].newPage();
      await page.goto(`${url}/help`);
      await page.evaluate((data) => localStorage.setItem('userData', JSON.stringify(data)), webSession(login));
      await page.close();
      await browser.close().catch(() => {});
    }
    const result = await lighthouse(
      `${url}${pagePath}`,
      {
        port: chrome.port,
        onlyCategories: ['performance'],
        output: 'json',
        logLevel: 'error',
        disableStorageReset: Boolean(login),
      },
      desktopConfig,
    );
    return Math.round((result?.lhr.categories.performance.score ?? 0) * 100);
  } finally {
    await chrome.kill();
  }
}

export async function measureSpa(url, adminLogin, { lighthouse: withLighthouse = true, work }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS.filter((f) => !f.startsWith('--headless')) });
  const out = {};
  try {
    out['login page /'] = await weigh(browser, url, null, '/');
    out['/users (admin)'] = await weigh(browser, url, adminLogin, '/users');
  } finally {
    await browser.close();
  }
  if (withLighthouse) {
    out['login page /'].lighthouse = await lighthouseScore(url, null, '/', work);
    out['/users (admin)'].lighthouse = await lighthouseScore(url, adminLogin, '/users', work);
  }
  return out;
}
