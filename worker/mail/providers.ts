import type { Bindings } from '../env';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  idempotencyKey: string;
}

/** A provider's answer: taken, or refused (`permanent`: trying again cannot help, e.g. a malformed address). */
export type SendResult = { ok: true; provider: string } | { ok: false; permanent: boolean; error: string };

export const MAIL_PROVIDERS = ['outbox', 'resend', 'cloudflare'] as const;
export type MailProvider = (typeof MAIL_PROVIDERS)[number];

/** Resend's send call; MAIL_API_URL replaces it (a regional endpoint, or a local stub in tests). */
export const RESEND_URL = 'https://api.resend.com/emails';

/** The configured provider; `http`, the old name of the Resend-shaped call, still means Resend. */
export function providerOf(env: Pick<Bindings, 'MAIL_PROVIDER'>): MailProvider {
  const name = (env.MAIL_PROVIDER ?? 'outbox').trim().toLowerCase();
  if (name === 'http') return 'resend';
  return (MAIL_PROVIDERS as readonly string[]).includes(name) ? (name as MailProvider) : 'outbox';
}

/** The short text kept as a mail's last error: status and the provider's own message, never the mail. */
const clip = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 300);

/**
 * Resend answers a repeated `Idempotency-Key` within 24 hours with the first answer and sends
 * nothing again. 429, 5xx and 409 (the same key still running) are worth another try.
 */
async function sendWithResend(env: Bindings, mail: OutgoingMail): Promise<SendResult> {
  if (!env.MAIL_API_KEY) return { ok: false, permanent: true, error: 'MAIL_API_KEY is not set' };
  let res: Response;
  try {
    res = await fetch(env.MAIL_API_URL || RESEND_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.MAIL_API_KEY}`, 'idempotency-key': mail.idempotencyKey },
      body: JSON.stringify({ from: env.MAIL_FROM, to: [mail.to], subject: mail.subject, text: mail.text, html: mail.html }),
    });
  } catch (err) {
    return { ok: false, permanent: false, error: clip(`unreachable: ${err instanceof Error ? err.message : String(err)}`) };
  }
  if (res.ok) {
    await res.body?.cancel();
    return { ok: true, provider: 'resend' };
  }
  const body = await res.text().catch(() => '');
  let message = body;
  try {
    message = (JSON.parse(body) as { message?: string }).message ?? body;
  } catch {
    // not JSON: keep the text
  }
  const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 409 && res.status !== 429;
  return { ok: false, permanent, error: clip(`${res.status} ${message}`) };
}

/** Takes no idempotency key: the consumer's lease on the row keeps two consumers from sending one mail (docs/decisions/0017-operations.md). */
async function sendWithCloudflare(env: Bindings, mail: OutgoingMail): Promise<SendResult> {
  const binding = env.EMAIL;
  if (!binding) return { ok: false, permanent: true, error: 'MAIL_PROVIDER is cloudflare but the EMAIL send_email binding is missing' };
  try {
    await binding.send({ from: env.MAIL_FROM ?? '', to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    return { ok: true, provider: 'cloudflare' };
  } catch (err) {
    return { ok: false, permanent: false, error: clip(err instanceof Error ? err.message : String(err)) };
  }
}

/** `outbox` sends nothing: the mail was kept in the outbox table when it was written. */
export async function sendThroughProvider(env: Bindings, mail: OutgoingMail): Promise<SendResult> {
  switch (providerOf(env)) {
    case 'resend':
      return sendWithResend(env, mail);
    case 'cloudflare':
      return sendWithCloudflare(env, mail);
    default:
      return { ok: true, provider: 'outbox' };
  }
}
