import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A tiny custom element for the acceptance scenario, served on a port of its own (another origin
 * than the app's, as a real custom element is): one labelled text box that speaks the Kontent.ai
 * custom element protocol — `init-data-request` on load, `set-value-request` on each change,
 * disabled when the app says so.
 */

const html = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Rating</title><script src="rating.js" defer></script></head>
  <body>
    <main>
      <label for="stars">Stars (0 to 5)</label>
      <input id="stars" type="text" inputmode="numeric">
      <p id="state">Waiting for the editor</p>
    </main>
  </body>
</html>`;

const script = `'use strict';
const input = document.getElementById('stars');
const state = document.getElementById('state');
let next = 0;
const send = (type, data) => parent.postMessage({ type, data, requestId: String(++next) }, '*');
window.addEventListener('message', (event) => {
  if (event.source !== parent) return;
  const message = event.data;
  if (message.type === 'init-data-response') {
    input.value = message.data.element.value ?? '';
    input.disabled = message.data.element.disabled;
    state.textContent = 'Ready';
  } else if (message.type === 'on-disabled-changed') input.disabled = message.data.disabled;
  else if (message.type === 'set-value-response') state.textContent = message.data.error ?? 'Sent';
});
input.addEventListener('input', () => send('set-value-request', { value: input.value === '' ? null : input.value }));
send('init-data-request', {});
`;

export interface CustomElementPage {
  /** The element's `source_url`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveCustomElement(): Promise<CustomElementPage> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/rating.html') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else if (path === '/rating.js')
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rating.html`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
