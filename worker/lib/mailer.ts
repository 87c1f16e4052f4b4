import { mailOutbox } from '../db/schema';
import { type Bindings, type Db, isDevelopment } from '../env';
import { randomId } from './ids';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends a mail. In development every mail goes to the outbox table (GET /api/dev/outbox) and
 * the console. With MAIL_PROVIDER=http it is also POSTed as JSON {from,to,subject,text,html} to
 * MAIL_API_URL with `Authorization: Bearer MAIL_API_KEY` (Resend, Postmark-style APIs).
 * A failed send is logged, never thrown: the user's action still succeeds.
 */
export async function sendMail(env: Bindings, db: Db, mail: Mail): Promise<void> {
  if (isDevelopment(env) || env.MAIL_PROVIDER !== 'http') {
    await db.insert(mailOutbox).values({ id: randomId(), ...mail, date: new Date() });
    console.log(`[mail] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.text}`);
  }
  if (env.MAIL_PROVIDER === 'http' && env.MAIL_API_URL) {
    try {
      const res = await fetch(env.MAIL_API_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${env.MAIL_API_KEY ?? ''}` },
        body: JSON.stringify({ from: env.MAIL_FROM, ...mail }),
      });
      if (!res.ok) console.error(`[mail] provider answered ${res.status}`);
    } catch (err) {
      console.error('[mail] provider unreachable', err);
    }
  }
}

/**
 * A day as mails write it: "22 Jan 2027", on Yerevan's calendar (the product bills in AMD; a
 * subscription ending at 23:00 UTC ends on the next day there).
 */
export const mailDay = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Yerevan' });

/** A moment as mails write it: "22 Jan 2027, 09:00 Yerevan time" (days left are calendar days on Yerevan's calendar, worker/lib/days-left.ts). */
export const mailMoment = (date: Date) =>
  `${mailDay(date)}, ${date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Yerevan' })} Yerevan time`;

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** A plain mail with one call-to-action link. */
export function linkMail(to: string, subject: string, intro: string, url: string): Mail {
  return {
    to,
    subject,
    text: `${intro}\n\n${url}\n`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
  };
}
