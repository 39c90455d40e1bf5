import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A custom element page written against Kontent.ai's documented Custom Elements JS API (the
 * `CustomElement` global), on a port of its own: it loads the API script from the Lectern it is
 * hosted by (`apiScriptUrl`, in place of app.kontent.ai's), reads its config, stores a JSON value
 * with setValue, shows the item's Title through getElementValue and observeElementChanges, and
 * picks an image with selectAssets and getAssetDetails.
 */

const script = `'use strict';
const rating = document.getElementById('rating');
const title = document.getElementById('title');
const pick = document.getElementById('pick');
const image = document.getElementById('image');
const state = document.getElementById('state');
let chosen = null;
const save = () =>
  CustomElement.setValue({
    value: JSON.stringify({ rating: rating.value, image: chosen }),
    searchableValue: rating.value + ' stars',
  });
const showTitle = () => CustomElement.getElementValue('title', (v) => (title.textContent = v));
CustomElement.init((element, context) => {
  const value = element.value ? JSON.parse(element.value) : {};
  rating.value = value.rating ?? '';
  chosen = value.image ?? null;
  document.getElementById('label').textContent = (element.config && element.config.label) || 'Rating';
  rating.disabled = pick.disabled = element.disabled;
  state.textContent = 'Ready in ' + context.item.name + ' (' + context.variant.codename + ')';
  showTitle();
  CustomElement.observeElementChanges(['title'], showTitle);
  CustomElement.setHeight(240);
});
CustomElement.onDisabledChanged((disabled) => (rating.disabled = pick.disabled = disabled));
rating.addEventListener('input', save);
pick.addEventListener('click', async () => {
  const picked = await CustomElement.selectAssets({ allowMultiple: false, fileType: 'images' });
  if (!picked || picked.length === 0) return;
  const [details] = await CustomElement.getAssetDetails(picked.map((a) => a.id));
  chosen = details.id;
  image.textContent = details.fileName + ' (' + details.imageWidth + '×' + details.imageHeight + ')';
  save();
});
`;

function page(apiScriptUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Harbour rating</title>
<script src="${apiScriptUrl}"></script><script src="rating.js" defer></script>
<style>body{font-family:system-ui,sans-serif;margin:.75rem;color:#123} label{display:block;font-weight:600}</style>
</head>
<body><main>
<label id="label" for="rating">Rating</label><input id="rating" type="text" inputmode="numeric">
<p>Item title: <output id="title"></output></p>
<p><button id="pick" type="button">Choose an image</button> <span id="image">No image</span></p>
<p id="state">Waiting for the editor</p>
</main></body>
</html>`;
}

export interface CustomElementApiPage {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveCustomElementApiPage(apiScriptUrl: string): Promise<CustomElementApiPage> {
  const html = page(apiScriptUrl);
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
