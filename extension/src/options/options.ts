/**
 * The options page: the server address, and the mail client E-mail opens (this browser's choice).
 * The server address. The build's address has its host permission from the
 * manifest; another one is asked for here (optional_host_permissions), in the click that saves it,
 * as Chrome requires.
 */

import { followLanguage, messageText, t } from '../i18n';
import { MAIL_CLIENTS, type MailClient } from '../shared/compose';
import { ask, type StatePush } from '../shared/protocol';

/** Each mail client's label in the catalogue (literal keys). */
const MAIL_CLIENT_KEYS: Record<MailClient, string> = { system: 'options.mailSystem', gmail: 'options.mailGmail', outlook: 'options.mailOutlook' };

/** The page's fixed texts (`data-i18n` in options.html) in the current language. */
function translatePage() {
  for (const node of document.querySelectorAll<HTMLElement>('[data-i18n]')) node.textContent = t(node.dataset.i18n!);
  for (const node of document.querySelectorAll<HTMLElement>('[data-mail-client]'))
    node.textContent = ` ${t(MAIL_CLIENT_KEYS[node.dataset.mailClient as MailClient])}`;
}

const input = document.getElementById('api-url') as HTMLInputElement;
const result = document.getElementById('result')!;
const form = document.getElementById('server-form') as HTMLFormElement;

const show = (text: string, tone: 'ok' | 'error') => {
  result.textContent = text;
  result.className = tone;
};

const mailForm = document.getElementById('mail-form') as HTMLFormElement;
const mailResult = document.getElementById('mail-result')!;
const mailChoices = document.getElementById('mail-clients')!;
for (const client of MAIL_CLIENTS) {
  const label = document.createElement('label');
  label.className = 'radio';
  const radio = document.createElement('input');
  radio.type = 'radio';
  radio.name = 'mailClient';
  radio.value = client;
  const text = document.createElement('span');
  text.dataset.mailClient = client;
  label.append(radio, text);
  mailChoices.append(label);
}

async function load() {
  const answer = await ask({ type: 'state' });
  // the signed-in user's language; before sign-in the browser's
  followLanguage(answer.ok ? answer.state.language : null);
  translatePage();
  if (!answer.ok) return;
  input.value = answer.state.apiUrl;
  for (const radio of mailForm.querySelectorAll<HTMLInputElement>('input[name="mailClient"]')) radio.checked = radio.value === answer.state.mailClient;
}

mailForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const picked = mailForm.querySelector<HTMLInputElement>('input[name="mailClient"]:checked')?.value as MailClient | undefined;
  if (!picked) {
    mailResult.textContent = t('service.pickMailClient');
    mailResult.className = 'error';
    return;
  }
  const answer = await ask({ type: 'setMailClient', mailClient: picked });
  mailResult.textContent = answer.ok ? t('options.saved') : messageText(answer);
  mailResult.className = answer.ok ? 'ok' : 'error';
});

async function save(url: string) {
  let origin: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error();
    origin = parsed.origin;
  } catch {
    return show(t('service.enterAddress'), 'error');
  }
  const pattern = `${origin}/*`;
  // the request must run in the click itself; a permission already granted answers true at once
  const granted = await chrome.permissions.request({ origins: [pattern] }).catch(() => false);
  if (!granted) return show(t('options.needsPermission', { origin }), 'error');
  const answer = await ask({ type: 'setApiUrl', apiUrl: origin });
  if (!answer.ok) return show(messageText(answer), 'error');
  input.value = answer.state.apiUrl;
  show(t('options.saved'), 'ok');
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  void save(input.value.trim());
});

document.getElementById('reset')!.addEventListener('click', () => {
  input.value = __API_URL__;
  void save(__API_URL__);
});

// the user's language changes with a sign-in or a sync: the page follows
chrome.runtime.onMessage.addListener((m: StatePush) => {
  if (m?.type === 'statePush' && followLanguage(m.state.language)) translatePage();
  return false;
});

void load();
