import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../db/schema';
import type { Db } from '../env';

export const createDb = (d1: D1Database): Db => drizzle(d1, { schema, casing: 'snake_case' });

/** Dates go out as ISO strings; null stays null. */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
