import { testEnv } from '../test/helpers';

/** Equal snapshots mean nothing changed. FTS5 shadow tables are internal (some WITHOUT ROWID) and skipped. */
export async function snapshotDb(): Promise<string> {
  const tables = await testEnv.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name != 'd1_migrations' and name not like '%\\_fts\\_%' escape '\\' order by name",
  ).all<{ name: string }>();
  // one batch, one round trip to D1, however many tables there are
  const reads = tables.results.map(({ name }) =>
    // a mail row's delivery columns change in the background (the queue's consumer): its identity is what a request wrote
    testEnv.DB.prepare(`select ${name === 'mails' ? 'id, kind, "to", subject, created_at' : '*'} from "${name}" order by rowid`),
  );
  const results = await testEnv.DB.batch(reads);
  const parts = tables.results.map(({ name }, i) => `${name}:${JSON.stringify(results[i]!.results)}`);
  return parts.join('\n');
}
