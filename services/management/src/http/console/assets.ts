import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Router } from 'express';
import type { AssetUrls } from './layout.ts';

interface Asset {
  readonly path: string;
  readonly type: string;
  readonly body: Buffer;
}

function load(file: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const [name, ext] = file.split('.') as [string, string];
  return { path: `/assets/${name}.${hash}.${ext}`, type, body };
}

/**
 * The console's one stylesheet and one script, read once at start. Their URLs carry a digest of
 * their content, so browsers keep them a year (`immutable`) and a new release is a new URL.
 */
export function serveAssets(router: Router): AssetUrls {
  const css = load('console.css', 'text/css; charset=utf-8');
  const js = load('console.js', 'text/javascript; charset=utf-8');
  for (const asset of [css, js]) {
    router.get(asset.path, (_req, res) => {
      res.set('cache-control', 'public, max-age=31536000, immutable').type(asset.type).send(asset.body);
    });
  }
  return { css: `/console${css.path}`, js: `/console${js.path}` };
}
