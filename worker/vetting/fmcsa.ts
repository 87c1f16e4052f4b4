/**
 * QCMobile client (docs/decisions/0021-broker-vetting.md). Every call passes the product-wide gate,
 * and never throws: a failure is an answer of its own, kept apart from "not found".
 */
import type { Bindings } from '../env';

/** The fields of QCMobile's `content.carrier` the product keeps (the names are QCMobile's). */
export interface QcCarrier {
  legalName: string | null;
  dotNumber: string;
  allowedToOperate: string | null;
  bipdInsuranceOnFile: string | null;
  bipdInsuranceRequired: string | null;
  bondInsuranceOnFile: string | null;
  bondInsuranceRequired: string | null;
  brokerAuthorityStatus: string | null;
  commonAuthorityStatus: string | null;
  contractAuthorityStatus: string | null;
  oosDate: string | null;
  statusCode: string | null;
}

/** One of `content[].carrierAuthority` of /carriers/{dot}/authority. */
export interface QcAuthority {
  docketNumber: string | null;
  prefix: string | null;
  brokerAuthorityStatus: string | null;
  commonAuthorityStatus: string | null;
  contractAuthorityStatus: string | null;
}

export type QcAnswer<T> = { kind: 'found'; value: T } | { kind: 'not_found' } | { kind: 'failed'; reason: string };

const DEFAULT_URL = 'https://mobile.fmcsa.dot.gov/qc/services/';
const GATE = 'fmcsa-gate';
/** A call that would wait longer than this for its moment is not made (the job tries again later). */
const MAX_GATE_WAIT_MS = 60_000;

export const fmcsaConfigured = (env: Pick<Bindings, 'FMCSA_WEBKEY'>) => !!env.FMCSA_WEBKEY?.trim();

const num = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
export const callsPerSecond = (env: Bindings) => num(env.FMCSA_CALLS_PER_SECOND, 3);
export const dailyBudget = (env: Bindings) => Math.floor(num(env.FMCSA_DAILY_BUDGET, 400));
const timeoutMs = (env: Bindings) => num(env.FMCSA_TIMEOUT_MS, 8000);

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

async function passGate(env: Bindings): Promise<boolean> {
  const wait = await env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(GATE)).reserve(Math.ceil(1000 / callsPerSecond(env)));
  if (wait > MAX_GATE_WAIT_MS) return false;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return true;
}

/** GET {FMCSA_URL}{path}?webKey=…: the parsed JSON, `not_found`, or why it failed (never the webKey). */
async function call(env: Bindings, path: string): Promise<QcAnswer<unknown>> {
  if (!fmcsaConfigured(env)) return { kind: 'failed', reason: 'not configured' };
  if (!(await passGate(env))) return { kind: 'failed', reason: 'busy' };
  const base = (env.FMCSA_URL || DEFAULT_URL).replace(/\/?$/, '/');
  const url = new URL(path, base);
  url.searchParams.set('webKey', env.FMCSA_WEBKEY!.trim());
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs(env)) });
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    return { kind: 'failed', reason: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network error' };
  }
  let body: { content?: unknown } | null = null;
  try {
    body = (await res.json()) as { content?: unknown };
  } catch {
    // a maintenance page comes as HTML, even with 200
    return { kind: 'failed', reason: `${res.status} not JSON` };
  }
  const content = body?.content;
  // a wrong webKey is a 404 too, with content "Webkey not found": a failure, never "not found"
  if (typeof content === 'string' && /webkey/i.test(content)) return { kind: 'failed', reason: `${res.status} webKey refused` };
  if (res.status === 404) return { kind: 'not_found' };
  if (!res.ok) return { kind: 'failed', reason: String(res.status) };
  if (typeof content === 'string') return { kind: 'failed', reason: `${res.status} ${content.slice(0, 80)}` };
  if (content === null || content === undefined || (Array.isArray(content) && content.length === 0)) return { kind: 'not_found' };
  return { kind: 'found', value: content };
}

function carrierOf(entry: unknown): QcCarrier | null {
  const c = (entry as { carrier?: Record<string, unknown> } | null)?.carrier;
  if (!c || c.dotNumber === undefined || c.dotNumber === null) return null;
  return {
    legalName: str(c.legalName),
    dotNumber: String(c.dotNumber),
    allowedToOperate: str(c.allowedToOperate),
    bipdInsuranceOnFile: str(c.bipdInsuranceOnFile),
    bipdInsuranceRequired: str(c.bipdInsuranceRequired),
    bondInsuranceOnFile: str(c.bondInsuranceOnFile),
    bondInsuranceRequired: str(c.bondInsuranceRequired),
    brokerAuthorityStatus: str(c.brokerAuthorityStatus),
    commonAuthorityStatus: str(c.commonAuthorityStatus),
    contractAuthorityStatus: str(c.contractAuthorityStatus),
    oosDate: str(c.oosDate),
    statusCode: str(c.statusCode),
  };
}

const digits = (n: string) => n.replace(/\D/g, '');

/** GET /carriers/{dot}: `content` is one object. */
export async function carrierByDot(env: Bindings, dot: string): Promise<QcAnswer<QcCarrier>> {
  const answer = await call(env, `carriers/${digits(dot)}`);
  if (answer.kind !== 'found') return answer;
  const carrier = carrierOf(Array.isArray(answer.value) ? answer.value[0] : answer.value);
  return carrier ? { kind: 'found', value: carrier } : { kind: 'failed', reason: 'unexpected answer' };
}

/** GET /carriers/docket-number/{mc}: `content` is a list (a docket names one entity; the first is taken). */
export async function carrierByMc(env: Bindings, mc: string): Promise<QcAnswer<QcCarrier>> {
  const answer = await call(env, `carriers/docket-number/${digits(mc)}`);
  if (answer.kind !== 'found') return answer;
  const carrier = carrierOf(Array.isArray(answer.value) ? answer.value[0] : answer.value);
  return carrier ? { kind: 'found', value: carrier } : { kind: 'failed', reason: 'unexpected answer' };
}

/** GET /carriers/{dot}/authority: `content[].carrierAuthority`. */
export async function authorityByDot(env: Bindings, dot: string): Promise<QcAnswer<QcAuthority[]>> {
  const answer = await call(env, `carriers/${digits(dot)}/authority`);
  if (answer.kind !== 'found') return answer;
  const list = Array.isArray(answer.value) ? answer.value : [answer.value];
  return {
    kind: 'found',
    value: list.map((e) => {
      const a = ((e as { carrierAuthority?: Record<string, unknown> } | null)?.carrierAuthority ?? {}) as Record<string, unknown>;
      return {
        docketNumber: str(a.docketNumber),
        prefix: str(a.prefix),
        brokerAuthorityStatus: str(a.brokerAuthorityStatus),
        commonAuthorityStatus: str(a.commonAuthorityStatus),
        contractAuthorityStatus: str(a.contractAuthorityStatus),
      };
    }),
  };
}
