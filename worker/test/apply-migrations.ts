import { applyD1Migrations, type D1Migration } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { allShards, d1Of } from '../lib/d1';

// vitest.config.ts reads the migrations in Node and hands them over as a test-only binding; every
// database (the control plane and each shard) takes the same migrations
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };
const bindings = env as unknown as Bindings;
await Promise.all(allShards(bindings).map((shard) => applyD1Migrations(d1Of(bindings, shard), TEST_MIGRATIONS)));
