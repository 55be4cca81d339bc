// Sign in: paste an API key; it is checked with one request and kept for this browser tab only.

import { apiKey, rateMessage } from '../api.js';
import { alertBox, fill, h } from '../dom.js';
import { go } from '../router.js';
import { handshake } from '../ws.js';

const REJECTED =
  'This API key was not accepted: it is unknown, malformed or revoked. ' +
  '“make run” prints a working key; “sibyl keys create” makes a new one.';

export function render(view, { query }) {
  document.title = 'Sign in · Sibyl';
  const input = h('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', required: true, spellcheck: 'false' });
  const status = h('div', { class: 'form-status', role: 'status' });
  if (query.get('reason') === 'rejected') status.append(alertBox('The server refused your API key. Please sign in again.'));

  async function submit(event) {
    event.preventDefault();
    const key = input.value.trim();
    fill(status, h('p', {}, 'Checking the key…'));
    try {
      await handshake(key);
      apiKey.set(key);
      go(query.get('next') || '/reports');
    } catch ({ kind, reason }) {
      const seconds = Number(/retry in (\d+)/.exec(reason ?? '')?.[1]);
      const message = { auth: REJECTED, rate: rateMessage(seconds) }[kind] ?? 'The server cannot be reached. Check that it is running, then retry.';
      fill(status, alertBox(message));
      input.focus();
    }
  }

  view.append(
    h('h1', {}, 'Sign in'),
    h(
      'form',
      { class: 'card signin', onsubmit: submit },
      h('label', { for: 'api-key' }, 'API key'),
      input,
      h('p', { class: 'hint', id: 'api-key-hint' }, 'Paste the key “make run” printed. It is kept only until you close this tab.'),
      h('button', { type: 'submit' }, 'Sign in'),
      status,
    ),
  );
  input.setAttribute('aria-describedby', 'api-key-hint');
}
