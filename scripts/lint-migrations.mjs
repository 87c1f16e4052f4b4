// `npm run lint`: migrations after 0025 are additive only (docs/decisions/0181-moving-companies.md).
// The deploy migrates every shard before the new Worker goes live, so the running Worker meets a
// shard one migration ahead: a migration may add tables, columns, indexes and triggers and fill
// them, never drop, rename or delete what the running Worker reads. A migration that must remove
// something (after the Worker that used it is gone everywhere) starts with a line
// `-- contract: <why nothing running reads it any more>` and is reviewed as such.
import fs from 'node:fs';
import path from 'node:path';

/** The last migration written before the rule. */
const LAST_FREE = 25;

const RULES = [
  [/\bdrop\s+(table|index|trigger|view)\b/i, 'drops'],
  [/\balter\s+table\s+\S+\s+rename\b/i, 'renames'],
  [/\balter\s+table\s+\S+\s+drop\b/i, 'drops a column'],
  [/\bdelete\s+from\b/i, 'deletes rows'],
];

/** The statements of a migration that are not additive, as `<what>: <statement>`; none when it is marked `-- contract:`. */
export function destructive(sql) {
  if (/^\s*--\s*contract:\s*\S/.test(sql)) return [];
  const code = sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  return code
    .split(/;|-->\s*statement-breakpoint/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .flatMap((statement) => RULES.filter(([re]) => re.test(statement)).map(([, what]) => `${what}: ${statement.slice(0, 120)}`));
}

// the rule itself, so it cannot quietly stop refusing
const planted = {
  'DROP TABLE `users`;': 1,
  'ALTER TABLE `users` RENAME COLUMN `name` TO `full_name`;': 1,
  'ALTER TABLE users DROP COLUMN phone;': 1,
  'DROP INDEX `users_type`;--> statement-breakpoint\nCREATE INDEX `users_type2` ON `users` (`user_type`);': 1,
  'DELETE FROM sessions WHERE 1;': 1,
  "ALTER TABLE `users` ADD `nickname` text DEFAULT '' NOT NULL;--> statement-breakpoint\nCREATE INDEX `x` ON `users` (`nickname`);": 0,
  "-- a comment that says drop table users\nUPDATE users SET phone = '' WHERE phone IS NULL;": 0,
  '-- contract: nothing reads users_type since 0031\nDROP INDEX `users_type`;': 0,
};
for (const [sql, count] of Object.entries(planted)) {
  if (destructive(sql).length !== count) {
    console.error(`lint-migrations: the rule misjudges a planted migration (${count ? 'not refused' : 'refused'}):\n${sql}`);
    process.exit(1);
  }
}

const dir = path.join(import.meta.dirname, '..', 'migrations');
const problems = fs
  .readdirSync(dir)
  .filter((f) => /^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) > LAST_FREE)
  .sort()
  .flatMap((file) => destructive(fs.readFileSync(path.join(dir, file), 'utf8')).map((p) => `migrations/${file}: ${p}`));
if (problems.length) {
  console.error(
    `Migrations are additive only (docs/decisions/0181-moving-companies.md): the running Worker meets shards a migration ahead.\n${problems.join('\n')}\n` +
      'Add instead; remove in a later migration that starts with `-- contract: <why nothing running reads it>`.',
  );
  process.exit(1);
}
