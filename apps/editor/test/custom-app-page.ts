import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/*
 * A custom app built on the published `@kontent-ai/custom-app-sdk` (bundled here with Vite, as an
 * app's own build would), served on a port of its own: it asks `getCustomAppContext()` and shows
 * what it got — environment, user, roles, its config, the page — or the error.
 */

const editorDir = fileURLToPath(new URL('..', import.meta.url));

/** The package as the editor's node_modules has it (the entry is written outside the tree). */
const sdkPath = join(editorDir, 'node_modules/@kontent-ai/custom-app-sdk/dist/index.js');

const entry = `import { getCustomAppContext } from ${JSON.stringify(sdkPath)};
const out = document.getElementById('out');
const row = (name, value) => {
  const dt = document.createElement('dt');
  dt.textContent = name;
  const dd = document.createElement('dd');
  dd.dataset.name = name;
  dd.textContent = typeof value === 'string' ? value : JSON.stringify(value);
  out.append(dt, dd);
};
getCustomAppContext().then((result) => {
  document.getElementById('state').textContent = result.isError ? 'Error: ' + result.code : 'Context received';
  if (result.isError) return;
  const c = result.context;
  row('currentPage', c.currentPage);
  row('environmentId', c.environmentId);
  row('userEmail', c.userEmail);
  row('userId', c.userId);
  row('userRoles', c.userRoles);
  row('appConfig', c.appConfig);
  row('pageTitle', c.pageTitle);
  if (c.currentPage === 'itemEditor') {
    row('contentItemId', c.contentItemId);
    row('languageId', c.languageId);
    row('validationErrors', c.validationErrors);
  }
});
`;

const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Harbour tools</title><script src="app.js" defer></script>
<style>body{font-family:system-ui,sans-serif;margin:1.5rem;color:#123} dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem} dt{font-weight:600}</style>
</head>
<body><main><h1>Harbour tools</h1><p id="state">Asking the host…</p><dl id="out"></dl></main></body>
</html>`;

export interface CustomAppPage {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveCustomApp(): Promise<CustomAppPage> {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-custom-app-'));
  writeFileSync(join(dir, 'entry.js'), entry);
  await build({
    configFile: false,
    logLevel: 'silent',
    root: editorDir,
    build: {
      outDir: join(dir, 'out'),
      emptyOutDir: true,
      minify: false,
      lib: { entry: join(dir, 'entry.js'), formats: ['iife'], name: 'HarbourTools', fileName: () => 'app.js' },
    },
  });
  const script = readFileSync(join(dir, 'out', 'app.js'));
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/app.html') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else if (path === '/app.js')
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/app.html`,
    close: () =>
      new Promise((resolve) =>
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        }),
      ),
  };
}
