// `npm run admin:create`: the first admin of the deployed product. The Worker creates no user by
// itself in production; run this once after the first `npm run deploy`:
//
//   ADMIN_EMAIL=you@company.com ADMIN_PASSWORD='…' PASSWORD_PEPPER='<the deployed secret>' npm run admin:create
//
// It hashes with the Worker's own code (worker/lib/passwords.ts) and inserts only when no live admin
// exists. `-- --local [--persist-to DIR]` writes to a local database instead.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { and, count, eq, isNull } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { isEmail, normalizeEmail } from '../worker/auth/auth.schema';
import { users } from '../worker/db/schema';
import { randomId } from '../worker/lib/ids';
import { hashPassword } from '../worker/lib/passwords';

const root = path.resolve(import.meta.dirname, '..');
const wrangler = path.join(root, 'node_modules', '.bin', 'wrangler');

function fail(message: string): never {
  console.error(`admin:create: ${message}`);
  process.exit(1);
}

function target(argv: string[]): string[] {
  if (!argv.includes('--local')) return ['--remote'];
  const at = argv.indexOf('--persist-to');
  return at >= 0 && argv[at + 1] ? ['--local', '--persist-to', argv[at + 1]!] : ['--local'];
}

/** A statement with its values written in: `wrangler d1 execute` takes no parameters. Values are ours (ids, a checked e-mail, a hash). */
function inline({ sql, params }: { sql: string; params: unknown[] }): string {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const value = params[i++];
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'number') return String(value);
    if (typeof value === 'boolean') return value ? '1' : '0';
    return `'${String(value).replaceAll("'", "''")}'`;
  });
}

function execute(where: string[], sql: string): { results: Record<string, unknown>[] }[] {
  const r = spawnSync(wrangler, ['d1', 'execute', 'DB', ...where, '--json', '--command', sql], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
  });
  if (r.status !== 0) fail(`wrangler d1 execute failed:\n${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout);
}

async function main() {
  const email = normalizeEmail(process.env.ADMIN_EMAIL ?? '');
  const password = process.env.ADMIN_PASSWORD ?? '';
  // the Worker peppers with PASSWORD_PEPPER, or JWT_SECRET when that is unset (worker/lib/secrets.ts)
  const pepper = process.env.PASSWORD_PEPPER || process.env.JWT_SECRET || '';
  if (!email || !isEmail(email)) fail('set ADMIN_EMAIL to the admin’s e-mail address');
  if (password.length < 6) fail('set ADMIN_PASSWORD (at least 6 characters)');
  if (!pepper) fail('set PASSWORD_PEPPER to the value of the deployed secret (or JWT_SECRET if PASSWORD_PEPPER is not set)');
  const where = target(process.argv.slice(2));
  // drizzle only renders the statements here; wrangler runs them
  const db = drizzle({} as D1Database, { casing: 'snake_case' });
  const admins = db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.userType, 'admin'), isNull(users.deletedAt)))
    .toSQL();
  const [found] = execute(where, inline(admins));
  // drizzle maps columns by position, so the count is the row's only value
  if (Number(Object.values(found?.results[0] ?? {})[0] ?? 0) > 0) {
    console.log('An admin already exists: nothing to do.');
    return;
  }
  const insert = db
    .insert(users)
    .values({
      id: randomId(),
      name: 'Admin',
      email,
      passwordHash: await hashPassword(password, pepper),
      userType: 'admin',
      isEmailVerified: true,
      registrationDate: new Date(),
    })
    .onConflictDoNothing()
    .toSQL();
  execute(where, inline(insert));
  console.log(`The first admin is ${email}: log in and change the password on the profile screen.`);
}

await main();
