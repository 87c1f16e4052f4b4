/**
 * Where E-mail writes the message (each user's pick in the options):
 * - `system`: a `mailto:` URI (RFC 6068).
 * - `gmail`: `https://mail.google.com/mail/?view=cm&fs=1&to=…&su=…&body=…`. Google documents no
 *   compose URL; this is the one Gmail's own `mailto:` handler answers and public references list, e.g.
 *   https://syntaxfix.com/question/34851/url-to-compose-a-message-in-gmail-with-full-gmail-interface-and-specified-to-bcc-subject-etc
 * - `outlook`: `https://outlook.office.com/mail/deeplink/compose?to=…&subject=…&body=…` (work and
 *   school accounts; Microsoft Tech Community, "Outlook deeplink for email compose":
 *   https://techcommunity.microsoft.com/discussions/microsoft-365/outlook-deeplink-for-email-compose-replaces-spaces-with--when-user-not-logged-in/4111903).
 *   Spaces go as %20, never `+`: Outlook shows a `+` literally.
 */
export const MAIL_CLIENTS = ['system', 'gmail', 'outlook'] as const;
export type MailClient = (typeof MAIL_CLIENTS)[number];

// encodeURIComponent: a space is %20 (Outlook), a `+` is %2B
const q = (name: string, value: string) => (value ? `${name}=${encodeURIComponent(value)}` : '');
const query = (...parts: string[]) => parts.filter(Boolean).join('&');

export function composeUrl(client: MailClient, to: string, subject: string, body: string): string {
  if (client === 'gmail') return `https://mail.google.com/mail/?${query('view=cm', 'fs=1', q('to', to), q('su', subject), q('body', body))}`;
  if (client === 'outlook') return `https://outlook.office.com/mail/deeplink/compose?${query(q('to', to), q('subject', subject), q('body', body))}`;
  const rest = query(q('subject', subject), q('body', body));
  return `mailto:${encodeURIComponent(to).replace(/%40/g, '@')}${rest ? `?${rest}` : ''}`;
}

export const opensInBrowser = (client: MailClient) => client !== 'system';
