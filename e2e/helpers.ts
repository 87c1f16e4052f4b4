/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { webSession } from '../scripts/web-session.mjs';

/** The app under test: playwright.config.ts picks the port once per run (E2E_PORT) and starts it there. */
export const baseURL = () => `http://127.0.0.1:${process.env.E2E_PORT}`;
const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** Saves a full-page screenshot under e2e/screenshots/ for a person to look at. */
export async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

export async function apiCall<T = any>(method: string, urlPath: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${baseURL()}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

export const PASSWORD = 'secret-pass';
let counter = 0;

export interface E2EUser {
  id: string;
  email: string;
  name: string;
  token: string;
  userType: string;
}

/**
 * Days from now to 18:00 Yerevan time `calendarDays` days on. Days left are calendar days on
 * Yerevan's clock (worker/lib/days-left.ts), so "3.5 days from now" reads 3 or 4 depending on the
 * hour the test runs; an end at 18:00 there reads `calendarDays` at any hour of today.
 */
/**
 * The moment `hourUtc`:00 UTC falls on in Yerevan, `calendarDays` Yerevan days from today: a
 * scheduled job's clock (the reminders run at 06:00 UTC, 10:00 in Yerevan).
 */
export function yerevanDayAt(calendarDays: number, hourUtc: number): Date {
  const hour = 3_600_000;
  const day = 24 * hour;
  const yerevanMidnight = Math.floor((Date.now() + 4 * hour) / day) * day - 4 * hour;
  return new Date(yerevanMidnight + calendarDays * day + (4 + hourUtc) * hour);
}

export function daysToYerevanEvening(calendarDays: number): number {
  const hour = 3_600_000;
  const day = 24 * hour;
  const yerevanMidnight = Math.floor((Date.now() + 4 * hour) / day) * day - 4 * hour;
  return (yerevanMidnight + calendarDays * day + 18 * hour - Date.now()) / day;
}

/** Creates a user through the development-only seeding route and logs it in through the API. */
export async function createUser(
  userType: 'admin' | 'director' | 'manager' | 'marketing' | 'agent',
  opts: { parentId?: string; subscriptionDays?: number | null; isEmailVerified?: boolean; name?: string } = {},
): Promise<E2EUser> {
  counter += 1;
  const email = `${userType}${counter}-${Date.now().toString(36)}@e2e.example`;
  const name = opts.name ?? `${userType[0]!.toUpperCase()}${userType.slice(1)} ${counter}`;
  const created = await apiCall('POST', '/api/dev/users', { userType, email, password: PASSWORD, name, ...opts });
  if (created.status !== 200) throw new Error(`dev user: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await apiCall('POST', '/api/auth/login', { email, password: PASSWORD, clientType: 0 });
  return { id: created.body._id, email, name, token: login.body.accessToken, userType };
}

/** Fills the login screen's form and submits it, as a person would (the page shows the login screen). */
export async function fillLogin(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/**
 * Logs in through the login screen, as a person would, and waits for the first screen; `origin`
 * names the app when a test started its own (the extension's tests).
 */
export async function loginUI(page: Page, email: string, password = PASSWORD, origin = '') {
  await page.goto(`${origin}/`);
  await fillLogin(page, email, password);
  await expect(page.getByTestId('user-email')).toBeVisible();
}

/** Signs the extension in from its popup (open on the popup's page), as a person would. */
export async function fillPopupSignIn(popup: Page, email: string, password = PASSWORD) {
  await popup.getByLabel('Email').fill(email);
  await popup.getByLabel('Password').fill(password);
  await popup.getByRole('button', { name: 'Sign in' }).click();
}

/** Puts a login's session into the web app's localStorage (faster than the login screen); `origin` as for loginUI. */
export async function storeSession(page: Page, login: Parameters<typeof webSession>[0], origin = '') {
  // the origin's favicon: one request, where a screen of the app loads its script and styles
  // too (a stylesheet wrangler dev once left unanswered for a minute held a login past its timeout)
  await page.goto(`${origin}/favicon.svg`);
  await page.evaluate((data) => localStorage.setItem('userData', JSON.stringify(data)), webSession(login));
}

/** Puts a session straight into localStorage (faster than the login screen) and opens `path`. */
export async function loginAs(page: Page, user: E2EUser, path = '/') {
  const login = await apiCall('POST', '/api/auth/login', { email: user.email, password: PASSWORD, clientType: 0 });
  await storeSession(page, login.body);
  await page.goto(path);
  await expect(page.getByTestId('user-email')).toBeVisible();
}

/**
 * Like loginAs, but the login call is made by the browser itself, so the session is described by
 * the browser's own User-Agent (Profile's Active sessions: "Chrome on Linux").
 */
export async function loginFromBrowser(page: Page, user: E2EUser, path = '/') {
  await page.goto('/favicon.svg');
  const login: Parameters<typeof webSession>[0] = await page.evaluate(
    async ({ email, password }) =>
      (
        await fetch('/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password, clientType: 0 }),
        })
      ).json(),
    { email: user.email, password: PASSWORD },
  );
  await page.evaluate((data) => localStorage.setItem('userData', JSON.stringify(data)), webSession(login));
  await page.goto(path);
  await expect(page.getByTestId('user-email')).toBeVisible();
}

/** A "2027-01-22" day as the date fields show it in US English, "01/22/2027" (components/ui/date-input.tsx). */
export const usDay = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/** The toast that says `text` (a toast stays for a few seconds; several may be up at once). */
export const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text }).first();
