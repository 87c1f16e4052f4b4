/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createUser, launch, loginUI, newPage, PASSWORD, shot } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const alertText = (page: Page) => page.getByRole('alert').textContent();

async function latestMailLink(to: string, path: string): Promise<string> {
  const outbox = await apiCall<{ to: string; text: string }[]>('GET', '/api/dev/outbox');
  const mail = outbox.body.find((m) => m.to === to && m.text.includes(`/${path}/`));
  const match = mail && new RegExp(`https?://[^/]+(/${path}/[0-9a-f]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} mail for ${to}`);
  return match[1]!;
}

describe('Manager Registration', () => {
  it('checks the fields in the spec order, sends nothing until valid, then returns to login', async () => {
    const page = await newPage(browser);
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/api/auth/register') && sent.push(r.url()));
    await page.goto('/');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Manager Registration' }).waitFor();
    const submit = () => page.getByRole('button', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Manager Registration' });

    await submit();
    expect(await alertText(page)).toBe('Name is Empty');
    await form.getByLabel('Name').fill('Nina Manager');
    await submit();
    expect(await alertText(page)).toBe('Email is Empty');
    const email = `nina-${Date.now()}@e2e.example`;
    await form.getByLabel('Email').fill(email);
    await submit();
    expect(await alertText(page)).toBe('Password is Empty');
    await form.getByLabel('Password', { exact: true }).fill('12345');
    await submit();
    expect(await alertText(page)).toBe('Password minimum 6 symbols');
    await form.getByLabel('Password', { exact: true }).fill('secret-1');
    await submit();
    expect(await alertText(page)).toBe('Select your country');
    expect(await form.getByLabel('Phone').isDisabled()).toBe(true);
    await form.getByLabel('Country').selectOption('AM');
    expect(await form.getByLabel('Phone').isDisabled()).toBe(false);
    expect(await form.getByLabel('Phone').inputValue()).toBe('+374');
    await submit();
    expect(await alertText(page)).toBe('Wrong phone number');
    await form.getByLabel('Phone').fill('+37491234567');
    await submit();
    expect(await alertText(page)).toBe('Repeat password is Empty');
    await form.getByLabel('Repeat password').fill('secret-2');
    await submit();
    expect(await alertText(page)).toBe("Passwords don't match");
    await shot(page, 'register-error');
    expect(sent).toEqual([]);

    await form.getByLabel('Repeat password').fill('secret-1');
    await submit();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await page.getByRole('status').first().textContent()).toMatch(/Registration successful/);
    expect(sent).toHaveLength(1);
    await shot(page, 'register-done');

    // the verification link from the mail
    const link = await latestMailLink(email, 'emailVerify');
    await page.goto(link);
    await page.getByText('Your e-mail has been verified').waitFor();
    await shot(page, 'email-verify');
    await page.reload();
    await page.getByText('This link is invalid or has expired').waitFor();
    await page.close();
  });

  it('shows the server message for a taken e-mail', async () => {
    const existing = await createUser('manager');
    const page = await newPage(browser);
    await page.goto('/');
    await page.getByRole('button', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Manager Registration' });
    await form.getByLabel('Name').fill('Dup');
    await form.getByLabel('Email').fill(existing.email);
    await form.getByLabel('Password', { exact: true }).fill('secret-1');
    await form.getByLabel('Country').selectOption('US');
    await form.getByLabel('Phone').fill('+12015550123');
    await form.getByLabel('Repeat password').fill('secret-1');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('This e-mail is already registered').waitFor();
    await page.close();
  });
});

describe('forgot password and recovery', () => {
  it('mails a link; the recovery screen checks, saves, goes to / and the new password works', async () => {
    const agent = await createUser('agent');
    const page = await newPage(browser);
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await page.getByRole('button', { name: 'Send Email' }).click();
    expect(await alertText(page)).toBe('Email is Empty');
    await page.getByLabel('Email').fill(agent.email);
    await shot(page, 'forgot-password');
    await page.getByRole('button', { name: 'Send Email' }).click();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await page.getByRole('status').first().textContent()).toMatch(/password reset link has been sent/);

    const link = await latestMailLink(agent.email, 'passwordRecovery');
    await page.goto(link);
    await page.getByLabel('New Password').fill('123');
    await page.getByLabel('Repeat password').fill('123');
    await page.getByRole('button', { name: 'Save Password' }).click();
    expect(await alertText(page)).toBe('Password minimum 6 symbols');
    await page.getByLabel('New Password').fill('new-secret-1');
    await page.getByLabel('Repeat password').fill('new-secret-2');
    await page.getByRole('button', { name: 'Save Password' }).click();
    expect(await alertText(page)).toBe("Passwords don't match");
    await shot(page, 'password-recovery');
    await page.getByLabel('Repeat password').fill('new-secret-1');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Login' }).waitFor();

    expect((await apiCall('POST', '/api/auth/login', { email: agent.email, password: PASSWORD })).status).toBe(400);
    expect((await apiCall('POST', '/api/auth/login', { email: agent.email, password: 'new-secret-1' })).status).toBe(200);

    // a used link shows the server's message
    await page.goto(link);
    await page.getByLabel('New Password').fill('another-1');
    await page.getByLabel('Repeat password').fill('another-1');
    await page.getByRole('button', { name: 'Save Password' }).click();
    expect(await alertText(page)).toBe('This link is invalid or has expired');
    await page.close();
  });
});

describe('device token', () => {
  it('a good login keeps a device token beside the session, sends it on the next login, and keeps it on logout', async () => {
    const agent = await createUser('agent');
    const page = await newPage(browser);
    const bodies: any[] = [];
    page.on('request', (r) => r.url().endsWith('/api/auth/login') && bodies.push(r.postDataJSON()));
    await loginUI(page, agent.email.toUpperCase());
    const stored = await page.evaluate(() => ({ devices: localStorage.getItem('deviceTokens'), session: localStorage.getItem('userData') }));
    const devices = JSON.parse(stored.devices ?? '{}');
    expect(Object.keys(devices)).toEqual([agent.email]);
    // userData keeps exactly the spec's fields
    expect(Object.keys(JSON.parse(stored.session!)).sort()).toEqual(['isSubscriptionActive', 'token', 'userEmail', 'userId', 'userName', 'userType']);
    expect(bodies[0].deviceToken).toBeUndefined();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('deviceTokens'))).toBe(stored.devices);
    await loginUI(page, agent.email);
    expect(bodies[1].deviceToken).toBe(devices[agent.email]);
    // each good login hands out a fresh one
    const after = JSON.parse((await page.evaluate(() => localStorage.getItem('deviceTokens'))) ?? '{}');
    expect(after[agent.email]).toBeTruthy();
    expect(after[agent.email]).not.toBe(devices[agent.email]);
    await page.close();
  });
});

describe('look-alike addresses', () => {
  it('registration refuses an e-mail with a zero-width space on the screen, sending nothing', async () => {
    const page = await newPage(browser);
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/api/auth/register') && sent.push(r.url()));
    await page.goto('/');
    await page.getByRole('button', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Manager Registration' });
    await form.getByLabel('Name').fill('Nina Manager');
    await form.getByLabel('Email').fill('ni\u200Bna@e2e.example');
    await page.getByRole('button', { name: 'Register' }).click();
    expect(await alertText(page)).toBe('Email is not valid');
    await form.getByLabel('Name').fill('Ni\u2060na');
    await page.getByRole('button', { name: 'Register' }).click();
    expect(await alertText(page)).toBe('Name contains invisible characters');
    expect(sent).toEqual([]);
    await page.close();
  });
});

describe('401 handling', () => {
  it('a session whose token stopped working is logged out without an error toast', async () => {
    const manager = await createUser('manager');
    const page = await newPage(browser);
    await page.goto('/help');
    await page.evaluate(
      (u) =>
        localStorage.setItem(
          'userData',
          JSON.stringify({ token: 'not-a-valid-token', userId: u.id, userType: 'manager', userName: u.name, userEmail: u.email, isSubscriptionActive: true }),
        ),
      manager,
    );
    await page.goto('/profile/');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('userData'))).toBeNull();
    expect(await page.getByTestId('toast').count()).toBe(0);
    await page.close();
  });
});
