/** Migrates every D1 database of wrangler.toml (or `configPath`) under `persistTo`, one after the other; returns the bindings migrated. */
export function migrateLocal(persistTo: string, configPath?: string): Promise<string[]>;
