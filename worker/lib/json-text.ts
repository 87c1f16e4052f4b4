import type { Context, TypedResponse } from 'hono';
import type { AppEnv } from '../env';

/**
 * Big list answers are JSON text that SQLite writes, one `json_object` a row (Contact History's
 * getHistory, the filter search and queue, the extension's list): the Worker splices the rows
 * instead of materialising objects and serialising them again. One object a row, never the whole
 * answer as one SQLite string (D1's 2 MB string limit).
 */

/** The JSON text of an array of rows' JSON objects (`j`). */
export const jsonArray = (rows: readonly { j: string }[]) => `[${rows.map((r) => r.j).join(',')}]`;

/** A 200 whose JSON text is already written, typed as the JSON it is for the typed clients. */
export const jsonText = <T>(c: Context<AppEnv>, json: string) =>
  c.body(json, 200, { 'content-type': 'application/json; charset=UTF-8' }) as unknown as Response & TypedResponse<T, 200, 'json'>;
