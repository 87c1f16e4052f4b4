/**
 * The options page: the server address. The build's address has its host permission from the
 * manifest; another one is asked for here (optional_host_permissions), in the click that saves it,
 * as Chrome requires.
 */
import { ask } from '../shared/protocol';

const input = document.getElementById('api-url') as HTMLInputElement;
const result = document.getElementById('result')!;
const form = document.getElementById('server-form') as HTMLFormElement;

const show = (text: string, tone: 'ok' | 'error') => {
  result.textContent = text;
  result.className = tone;
};

async function load() {
  const answer = await ask({ type: 'state' });
  if (answer.ok) input.value = answer.state.apiUrl;
}

async function save(url: string) {
  let origin: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error();
    origin = parsed.origin;
  } catch {
    return show('Enter the server address, like https://app.freightdesk.example', 'error');
  }
  const pattern = `${origin}/*`;
  // the request must run in the click itself; a permission already granted answers true at once
  const granted = await chrome.permissions.request({ origins: [pattern] }).catch(() => false);
  if (!granted) return show(`FreightDesk needs your permission to reach ${origin}`, 'error');
  const answer = await ask({ type: 'setApiUrl', apiUrl: origin });
  if (!answer.ok) return show(answer.message, 'error');
  input.value = answer.state.apiUrl;
  show('Saved', 'ok');
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  void save(input.value.trim());
});

document.getElementById('reset')!.addEventListener('click', () => {
  input.value = __API_URL__;
  void save(__API_URL__);
});

void load();
