import { defineMessages } from '../lib/messages';

/** The link shortener's messages; shared with the screens. */
export const LINK_MESSAGES = defineMessages('link', {
  empty: [400, 'Enter a link', '`from` missing or blank'],
  scheme: [
    400,
    'Enter a link starting with http:// or https://',
    'any other scheme: `javascript:`, `data:`, `ftp:`, `file:`, `mailto:`, or no scheme (`example.com`)',
  ],
  invalid: [400, 'This is not a valid link', 'does not parse as a URL, has no host, or contains spaces, `<`, `>` or `"`'],
  tooLong: [400, 'This link is too long (2048 characters at most)', 'more than 2048 characters after trimming'],
  credentials: [400, 'Links with a user name or password are not allowed', '`https://user:pass@…` or `https://user@…`'],
  ownSite: [
    400,
    'Links to this site are not allowed: a short link must lead somewhere else',
    "the host is one of ours, whatever the path, port or scheme: `PUBLIC_URL`'s, the host the request came to, `OWN_HOSTS`; in development (or when one of those is a loopback name) also `localhost`, `*.localhost`, 127.0.0.0/8, 0.0.0.0/8, `[::1]`, `[::]` and IPv4-mapped forms. Hosts are compared after the WHATWG URL parser's normalisation (case, punycode, `%`-escapes, full-width letters, decimal/hex/octal IPv4) with trailing dots removed",
  ],
  alias: [400, 'An alias is 3 to 32 letters, digits, - or _', '`alias` given and not `[A-Za-z0-9_-]{3,32}`'],
  aliasTaken: [409, 'This alias is already taken', "another link (anyone's) already has that code"],
  expiresAt: [400, 'Choose an expiry date and time in the future'],
  maxClicks: [400, 'A click limit is a whole number from 1 to 1000000000'],
  // a boolean the screen always sends as one: only a hand-made call sees this
  isDisabled: [400, 'isDisabled must be true or false'],
  keyName: [400, 'Give the key a name (1 to 60 characters)'],
  keyExpiresAt: [400, 'Choose a key expiry in the future, at most 2 years ahead'],
  tooManyKeys: [409, 'You have 20 keys already: revoke one first'],
});
