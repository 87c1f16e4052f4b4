/** Migrates every D1 database of wrangler.toml under `persistTo`; returns the bindings migrated. */
export function migrateLocal(persistTo: string): Promise<string[]>;
