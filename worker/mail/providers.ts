import type { Bindings } from '../env';

/** What a provider is handed: one mail, and the key that makes a retried send harmless. */
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
 * Resend's HTTP API (POST /emails, https://resend.com/docs/api-reference/emails/send-email) with
 * the `Idempotency-Key` header: Resend answers a repeated key within 24 hours with the first
 * answer and sends nothing again. 429 and 5xx are worth another try; 409 is a concurrent request
 * with the same key still running (try again later); any other 4xx (a bad address or sender, a
 * bad key) is permanent.
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

/**
 * Cloudflare Email Service's Workers binding (`[[send_email]]`, `env.EMAIL.send({...})`). It takes
 * no idempotency key: the consumer's lease on the mail row keeps two consumers from sending one
 * mail, and a failure before the row records the send can repeat it (docs/decisions/0017-operations.md).
 */
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

/**
 * Hands one mail to the configured provider. `outbox` sends nothing: the mail was kept in the
 * outbox table when it was written (mail/mailer.ts), which is all a development machine or a
 * deployment without a provider has.
 */
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
