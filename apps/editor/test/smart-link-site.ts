import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/*
 * A demo site instrumented with the published `@kontent-ai/smart-link` (its UMD bundle, served
 * from node_modules as a site would serve it), on a port of its own: another origin than the app,
 * as a real site is. `/page/{slug}?lang={codename}` renders the landing page with that URL slug
 * from Lectern's Delivery API (published content) with Smart Link's data attributes: the title
 * (edit button), and the related pages (an add button at the end). The site applies the SDK's
 * `update` messages to its title, so unsaved edits show as they are typed; a `refresh` reloads it.
 */

const bundlePath = fileURLToPath(
  new URL('../node_modules/@kontent-ai/smart-link/dist/bundles/kontent-smart-link.min.js', import.meta.url),
);

const siteScript = `'use strict';
const sdk = kontentSmartLink.default.initialize({ queryParam: '' });
const page = document.querySelector('main[data-kontent-item-id]');
sdk.on('update', (data) => {
  if (data.item.id !== page.dataset.kontentItemId) return;
  for (const e of data.elements) {
    if (e.element.codename === 'title') page.querySelector('h1').textContent = e.data.value;
  }
});
`;

interface Delivered {
  items: {
    system: { id: string; name: string; codename: string; language: string };
    elements: Record<string, { value: unknown }>;
  }[];
  modular_content: Record<string, { system: { id: string; name: string } }>;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function render(projectId: string, data: Delivered): string {
  const item = data.items[0];
  if (!item)
    return '<!doctype html><html lang="en"><head><title>Not found</title></head><body><h1>Not found</h1></body></html>';
  const title = String(item.elements['title']?.value ?? '');
  const related = (item.elements['related']?.value ?? []) as string[];
  const list = related
    .map((c) => data.modular_content[c])
    .filter((x) => x !== undefined)
    .map((x) => `<li data-kontent-item-id="${escape(x.system.id)}">${escape(x.system.name)}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escape(title)}</title>
<script src="/smart-link.js"></script><script src="/site.js" defer></script>
<style>body{font-family:Georgia,serif;margin:2rem;color:#1b2a3a} h1{font-size:2.2rem} section{margin-top:2rem;padding:1rem;border:1px dashed #9ab}</style>
</head>
<body data-kontent-environment-id="${escape(projectId)}" data-kontent-language-codename="${escape(item.system.language)}">
<nav><a href="/page/home?lang=default">Home</a> · <a href="/page/about-us?lang=default">About us</a></nav>
<main data-kontent-item-id="${escape(item.system.id)}">
<h1 data-kontent-element-codename="title">${escape(title)}</h1>
<p>A demo page of the harbour site, read from the Delivery API.</p>
<section data-kontent-element-codename="related" data-kontent-add-button data-kontent-add-button-insert-position="end">
<h2>Related pages</h2><ul id="related">${list}</ul>
</section>
</main>
</body>
</html>`;
}

export interface DemoSite {
  /** `http://127.0.0.1:{port}` (no trailing slash). */
  readonly origin: string;
  /** `127.0.0.1:{port}`: the space's domain in the preview configuration. */
  readonly host: string;
  close(): Promise<void>;
}

export async function serveDemoSite(deliveryUrl: string, projectId: string): Promise<DemoSite> {
  const bundle = readFileSync(bundlePath);
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/smart-link.js')
      return void response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    if (url.pathname === '/site.js')
      return void response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(siteScript);
    const slug = /^\/page\/([\w-]+)$/.exec(url.pathname)?.[1];
    if (!slug) return void response.writeHead(404).end();
    const lang = url.searchParams.get('lang') ?? 'default';
    const query = new URLSearchParams({ 'elements.slug': slug, language: lang, depth: '1' });
    fetch(`${deliveryUrl}/${projectId}/items?${query}`)
      .then(async (r) => (r.status === 200 ? ((await r.json()) as Delivered) : { items: [], modular_content: {} }))
      .then((data) =>
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(render(projectId, data)),
      )
      .catch(() => response.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
