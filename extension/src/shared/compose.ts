/**
 * Where E-mail writes the message: each user picks the mail client in the extension's options.
 *
 * - `system`: a `mailto:` URI (RFC 6068): the browser hands it to the system's mail client.
 * - `gmail`: Gmail's compose window, `https://mail.google.com/mail/?view=cm&fs=1&to=…&su=…&body=…`.
 *   Google documents no compose URL; this form is the one Gmail itself answers for its
 *   `mailto:` handler and the one public references list (`view=cm` the compose view, `fs=1`
 *   full screen, `su` the subject; the rest as in RFC 6068), e.g.
 *   https://syntaxfix.com/question/34851/url-to-compose-a-message-in-gmail-with-full-gmail-interface-and-specified-to-bcc-subject-etc
 * - `outlook`: Outlook on the web's compose deeplink,
 *   `https://outlook.office.com/mail/deeplink/compose?to=…&subject=…&body=…` (work and school
 *   accounts; Microsoft Tech Community, "Outlook deeplink for email compose":
 *   https://techcommunity.microsoft.com/discussions/microsoft-365/outlook-deeplink-for-email-compose-replaces-spaces-with--when-user-not-logged-in/4111903).
 *   Spaces go as %20, never `+`: Outlook shows a `+` literally.
 */
export const MAIL_CLIENTS = ['system', 'gmail', 'outlook'] as const;
export type MailClient = (typeof MAIL_CLIENTS)[number];

/** URL-encodes a value for a query: encodeURIComponent, so a space is %20 and a `+` is %2B. */
const q = (name: string, value: string) => (value ? `${name}=${encodeURIComponent(value)}` : '');
const query = (...parts: string[]) => parts.filter(Boolean).join('&');

/** The URL E-mail opens: the address, the subject and the body in the user's mail client. */
export function composeUrl(client: MailClient, to: string, subject: string, body: string): string {
  if (client === 'gmail') return `https://mail.google.com/mail/?${query('view=cm', 'fs=1', q('to', to), q('su', subject), q('body', body))}`;
  if (client === 'outlook') return `https://outlook.office.com/mail/deeplink/compose?${query(q('to', to), q('subject', subject), q('body', body))}`;
  const rest = query(q('subject', subject), q('body', body));
  return `mailto:${encodeURIComponent(to).replace(/%40/g, '@')}${rest ? `?${rest}` : ''}`;
}

/** Whether the compose URL opens a web page (a new tab) rather than an app. */
export const opensInBrowser = (client: MailClient) => client !== 'system';
