// The Worker's settings for local runs: process environment first, then development defaults.
// Used by `npm start`, the browser tests, the demo seeder and the benchmarks.
export const PASS_THROUGH = [
  'ENVIRONMENT',
  'JWT_SECRET',
  'PASSWORD_PEPPER',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'PUBLIC_URL',
  'MONTHLY_PRICE_AMD',
  'IDRAM_REC_ACCOUNT',
  'IDRAM_SECRET_KEY',
  'IDRAM_PAYMENT_URL',
  'MAIL_PROVIDER',
  'MAIL_FROM',
  'MAIL_API_URL',
  'MAIL_API_KEY',
  'DISABLE_RATE_LIMITS',
];

export const DEV_DEFAULTS = {
  ENVIRONMENT: 'development',
  JWT_SECRET: 'local-development-jwt-secret-not-for-production',
  PASSWORD_PEPPER: 'local-development-pepper',
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'admin12345',
  MONTHLY_PRICE_AMD: '5000',
  IDRAM_REC_ACCOUNT: '110000000',
  IDRAM_SECRET_KEY: 'local-idram-secret',
  MAIL_PROVIDER: 'outbox',
};

/** The vars for a local Worker on `port`, as `--var KEY:VALUE` arguments and as an object. */
export function devVars(port, overrides = {}) {
  const vars = { ...DEV_DEFAULTS, PUBLIC_URL: `http://localhost:${port}` };
  for (const key of PASS_THROUGH) if (process.env[key]) vars[key] = process.env[key];
  Object.assign(vars, overrides);
  const args = Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
  return { vars, args };
}
