import { sha256Hex } from '../lib/ids';

/**
 * docs/decisions/0171-history-retention-r2.md. `client_id` is kept so a restore is idempotent; the key
 * names no database, so an archive stays put when its company moves between shards.
 */

/** A call_history row as D1 answers `select *`: its columns by their SQL names. */
export type ArchivedRow = Record<string, string | number | null> & { id: string; user_id: string; team_id: string; call_date: number; kind: string };

/** A UTC month, '2025-03'. */
export const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;

export const teamPrefix = (teamId: string) => `history/${teamId}/`;
export const archiveKey = (teamId: string, month: string) => `${teamPrefix(teamId)}${month}.ndjson.gz`;

/** The object as read: its rows and the etag a conditional write names. */
export interface ArchiveObject {
  etag: string;
  rows: ArchivedRow[];
}

/** The object does not hold what its metadata says: never delete rows on the strength of it. */
export class ArchiveCorrupt extends Error {}

/** Newest first (the export's order), then by id so the same rows always make the same bytes. */
export function sortRows(rows: ArchivedRow[]): ArchivedRow[] {
  return rows.sort((a, b) => b.call_date - a.call_date || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

const toNdjson = (rows: ArchivedRow[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const gunzip = (body: ReadableStream): ReadableStream => body.pipeThrough(new DecompressionStream('gzip'));

export const ndjsonText = (body: ReadableStream) => gunzip(body).pipeThrough(new TextDecoderStream());

/**
 * Reads and checks an archived month: null when there is no object; ArchiveCorrupt when its text
 * is not the SHA-256 or the row count its metadata recorded at the write.
 */
export async function readArchive(bucket: R2Bucket, key: string): Promise<ArchiveObject | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const text = await new Response(gunzip(object.body)).text();
  const meta = object.customMetadata ?? {};
  if (meta.sha256 !== (await sha256Hex(text))) throw new ArchiveCorrupt(`${key}: its text is not the SHA-256 written`);
  const rows = text
    ? text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ArchivedRow)
    : [];
  if (String(rows.length) !== meta.rows) throw new ArchiveCorrupt(`${key}: ${rows.length} rows, ${meta.rows} written`);
  return { etag: object.etag, rows };
}

/** Conditional on the etag, so two writers never overwrite each other's rows: false when someone wrote first. */
export async function writeArchive(bucket: R2Bucket, key: string, rows: ArchivedRow[], previous: ArchiveObject | null): Promise<boolean> {
  const text = toNdjson(sortRows([...rows]));
  const written = await bucket.put(key, await gzip(text), {
    onlyIf: previous ? { etagMatches: previous.etag } : { etagDoesNotMatch: '*' },
    httpMetadata: { contentType: 'application/gzip' },
    customMetadata: { rows: String(rows.length), sha256: await sha256Hex(text), format: 'call_history ndjson 1' },
  });
  return written !== null;
}

/** Splits text into lines across chunks; the last line needs no newline. */
export function lineSplitter(): TransformStream<string, string> {
  let rest = '';
  return new TransformStream({
    transform(chunk, controller) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line) controller.enqueue(line);
    },
    flush(controller) {
      if (rest) controller.enqueue(rest);
    },
  });
}
