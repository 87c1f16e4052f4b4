/**
 * The start step of the test server, as `npm start` runs it: the first admin from ADMIN_EMAIL /
 * ADMIN_PASSWORD (.dev.vars.example). Playwright starts the webServer before this runs.
 */
export default async function setup() {
  const res = await fetch(`http://127.0.0.1:${process.env.E2E_PORT}/api/dev/admin`, { method: 'POST' });
  if (!res.ok) throw new Error(`creating the first admin failed: ${res.status} ${await res.text()}`);
}
