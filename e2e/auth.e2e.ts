/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, loginUI, PASSWORD, shot } from './helpers';

const alert = (page: Page) => page.getByRole('alert');

async function latestMailLink(to: string, path: string): Promise<string> {
  const outbox = await apiCall<{ to: string; text: string }[]>('GET', '/api/dev/outbox');
  const mail = outbox.body.find((m) => m.to === to && m.text.includes(`/${path}/`));
  const match = mail && new RegExp(`https?://[^/]+(/${path}/[0-9a-f]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} mail for ${to}`);
  return match[1]!;
}

test.describe('Manager Registration', () => {
  test('checks the fields in the spec order, sends nothing until valid, then returns to login', async ({ page }) => {
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/api/auth/register') && sent.push(r.url()));
    await page.goto('/');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { name: 'Manager Registration' })).toBeVisible();
    const submit = () => page.getByRole('button', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Manager Registration' });

    await submit();
    await expect(alert(page)).toHaveText('Name is Empty');
    await form.getByLabel('Name').fill('Nina Manager');
    await submit();
    await expect(alert(page)).toHaveText('Email is Empty');
    const email = `nina-${Date.now()}@e2e.example`;
    await form.getByLabel('Email').fill(email);
    await submit();
    await expect(alert(page)).toHaveText('Password is Empty');
    await form.getByLabel('Password', { exact: true }).fill('12345');
    await submit();
    await expect(alert(page)).toHaveText('Password minimum 6 symbols');
    await form.getByLabel('Password', { exact: true }).fill('secret-1');
    await submit();
    await expect(alert(page)).toHaveText('Select your country');
    await expect(form.getByLabel('Phone')).toBeDisabled();
    await form.getByLabel('Country').selectOption('AM');
    await expect(form.getByLabel('Phone')).toBeEnabled();
    await expect(form.getByLabel('Phone')).toHaveValue('+374');
    await submit();
    await expect(alert(page)).toHaveText('Wrong phone number');
    await form.getByLabel('Phone').fill('+37491234567');
    await submit();
    await expect(alert(page)).toHaveText('Repeat password is Empty');
    await form.getByLabel('Repeat password').fill('secret-2');
    await submit();
    await expect(alert(page)).toHaveText("Passwords don't match");
    await shot(page, 'register-error');
    expect(sent).toEqual([]);

    await form.getByLabel('Repeat password').fill('secret-1');
    await submit();
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('status').first()).toHaveText(/Registration successful/);
    expect(sent).toHaveLength(1);
    await shot(page, 'register-done');

    // the verification link from the mail
    const link = await latestMailLink(email, 'emailVerify');
    await page.goto(link);
    await expect(page.getByText('Your e-mail has been verified')).toBeVisible();
    await shot(page, 'email-verify');
    // the same link again (a second click in the mail): the account is verified, and the page says so
    await page.reload();
    await expect(page.getByText('Your e-mail is already verified')).toBeVisible();
    await shot(page, 'email-verify-again');
  });

  test('shows the server message for a taken e-mail', async ({ page }) => {
    const existing = await createUser('manager');
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
    await expect(page.getByText('This e-mail is already registered')).toBeVisible();
  });
});

test.describe('forgot password and recovery', () => {
  test('mails a link; the recovery screen checks, saves, goes to / and the new password works', async ({ page }) => {
    const agent = await createUser('agent');
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await page.getByRole('button', { name: 'Send Email' }).click();
    await expect(alert(page)).toHaveText('Email is Empty');
    await page.getByLabel('Email').fill(agent.email);
    await shot(page, 'forgot-password');
    await page.getByRole('button', { name: 'Send Email' }).click();
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('status').first()).toHaveText(/password reset link has been sent/);

    const link = await latestMailLink(agent.email, 'passwordRecovery');
    await page.goto(link);
    await page.getByLabel('New Password').fill('123');
    await page.getByLabel('Repeat password').fill('123');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await expect(alert(page)).toHaveText('Password minimum 6 symbols');
    await page.getByLabel('New Password').fill('new-secret-1');
    await page.getByLabel('Repeat password').fill('new-secret-2');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await expect(alert(page)).toHaveText("Passwords don't match");
    await shot(page, 'password-recovery');
    await page.getByLabel('Repeat password').fill('new-secret-1');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

    expect((await apiCall('POST', '/api/auth/login', { email: agent.email, password: PASSWORD })).status).toBe(400);
    expect((await apiCall('POST', '/api/auth/login', { email: agent.email, password: 'new-secret-1' })).status).toBe(200);

    // a used link shows the server's message
    await page.goto(link);
    await page.getByLabel('New Password').fill('another-1');
    await page.getByLabel('Repeat password').fill('another-1');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await expect(alert(page)).toHaveText('This link is invalid or has expired');
  });
});

test.describe('device token', () => {
  test('a good login keeps a device token beside the session, sends it on the next login, and keeps it on logout', async ({ page }) => {
    const agent = await createUser('agent');
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
  });
});

test.describe('look-alike addresses', () => {
  test('registration refuses an e-mail with a zero-width space on the screen, sending nothing', async ({ page }) => {
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/api/auth/register') && sent.push(r.url()));
    await page.goto('/');
    await page.getByRole('button', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Manager Registration' });
    await form.getByLabel('Name').fill('Nina Manager');
    await form.getByLabel('Email').fill('ni\u200Bna@e2e.example');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(alert(page)).toHaveText('Email is not valid');
    await form.getByLabel('Name').fill('Ni\u2060na');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(alert(page)).toHaveText('Name contains invisible characters');
    expect(sent).toEqual([]);
  });
});

test.describe('401 handling', () => {
  test('a session whose token stopped working is logged out without an error toast', async ({ page }) => {
    const manager = await createUser('manager');
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
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('userData'))).toBeNull();
    await expect(page.getByTestId('toast')).toHaveCount(0);
  });
});
