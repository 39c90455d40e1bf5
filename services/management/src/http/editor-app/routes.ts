import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { assetsOriginOf } from '../assets-origin.ts';

/**
 * The built editor app (`apps/editor/dist`) of this checkout or image: `services/management/src`
 * and `apps/editor` are siblings in both.
 */
export const defaultEditorDir = fileURLToPath(new URL('../../../../../apps/editor/dist', import.meta.url));

/**
 * The app's CSP: the console's (no inline script or style, nothing from elsewhere, no framing of
 * the app), with images from the assets origin (thumbnails, rich-text images) and frames of any
 * http(s) URL (a custom element is the page at its configured URL).
 */
export function editorCsp(assetsOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' ${assetsOrigin} data: blob:`,
    "connect-src 'self'",
    'frame-src https: http:',
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** How to build the app, on the page answered while it is not built. */
const notBuiltPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>The editor is not built</title></head>
<body>
<main>
<h1>The editor is not built</h1>
<p>This server has no build of the editor app (<code>apps/editor/dist</code>).
<code>./lectern start</code> builds it on start; by hand:
<code>pnpm --filter @lectern/editor build</code>, then reload this page.</p>
</main>
</body>
</html>
`;

export interface EditorAppOptions {
  /** The app's `dist` folder (Vite's output); null: not served (every page answers 503). */
  readonly editorDir: string | null;
}

/**
 * `GET /` on the editor's own host (`app.<domain>`: host routing, the chart's Ingress) leads to
 * the app at /app/; on any other host `/` is left to the routes after it.
 */
export function editorHome(req: Request, res: Response, next: NextFunction): void {
  if (!/^app\./i.test(req.get('host') ?? '')) return next();
  res.set('cache-control', 'no-store').redirect(302, '/app/');
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * The editor under `/app` (mount it there): `/app/assets/…` are the build's hashed files, cached
 * for a year; any other GET or HEAD is the single page's `index.html`, never cached, whose router
 * shows the screen. `/app/api/…` is left to the routes of the app's API.
 */
export function editorAppRouter(options: EditorAppOptions): Router {
  const router = Router();
  router.use((req, res, next) => {
    if (isApiPath(req.path)) return next('router');
    res.set({
      'content-security-policy': editorCsp(assetsOriginOf(req)),
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
    });
    next();
  });
  const dir = options.editorDir;
  if (dir !== null) {
    // The Custom Elements JS API for custom element pages on other origins (docs/editor/in-context.md).
    router.get(
      ['/js-api/custom-element/v1/custom-element.js', '/js-api/custom-element/v1/custom-element.min.js'],
      (_req, res) => {
        res.set({
          'cache-control': 'no-cache',
          'cross-origin-resource-policy': 'cross-origin',
          'access-control-allow-origin': '*',
        });
        res.type('text/javascript').sendFile(join(dir, 'js-api/custom-element/v1/custom-element.js'));
      },
    );
    router.use(
      '/assets',
      express.static(join(dir, 'assets'), {
        immutable: true,
        maxAge: '365d',
        index: false,
        redirect: false,
        dotfiles: 'ignore',
        fallthrough: true,
      }),
    );
  }
  // A missing hashed file is a 404, never the page (a stale tab asking for an old chunk).
  router.use('/assets', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.status(404).set('cache-control', 'no-store').type('text/plain').send('Not found\n');
  });
  router.use(async (req: Request, res: Response, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const page = dir === null ? null : await readIndex(dir);
    if (page === null) {
      res.status(503).set('cache-control', 'no-store').type('html').send(notBuiltPage);
      return;
    }
    res.status(200).set('cache-control', 'no-cache').type('html').send(page);
  });
  return router;
}

/** index.html, read per request: a rebuild while the server runs is served at once. */
async function readIndex(dir: string): Promise<Buffer | null> {
  try {
    return await readFile(join(dir, 'index.html'));
  } catch {
    return null;
  }
}
