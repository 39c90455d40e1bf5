import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureAssetsOrigin } from '../assets-origin.ts';
import { configurePublicOrigin } from '../public-origin.ts';
import { editorAppRouter, editorHome } from './routes.ts';

const dist = mkdtempSync(join(tmpdir(), 'lectern-editor-dist-'));
const servers: Server[] = [];

/** A server with only the editor app at /app (and a stand-in for the app's API beside it). */
async function serve(editorDir: string | null): Promise<string> {
  const app = express();
  configurePublicOrigin(app, { trustedProxies: [], publicUrl: null });
  configureAssetsOrigin(app, { publicUrl: 'https://assets.example.test' });
  app.get('/', editorHome);
  app.use('/app', editorAppRouter({ editorDir }));
  app.get('/app/api/session', (_req, res) => res.status(401).json({ message: 'signed out' }));
  app.use((_req, res) => res.status(404).json({ message: 'no route' }));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

beforeAll(() => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Lectern</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
  mkdirSync(join(dist, 'js-api/custom-element/v1'), { recursive: true });
  writeFileSync(join(dist, 'js-api/custom-element/v1/custom-element.js'), 'window.CustomElement = {};');
});
afterAll(() => {
  for (const server of servers) server.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the editor app at /app', () => {
  let base: string;
  beforeAll(async () => {
    base = await serve(dist);
  });

  it('serves the Custom Elements JS API script to pages of any origin, under both names', async () => {
    for (const name of ['custom-element.js', 'custom-element.min.js']) {
      const response = await fetch(`${base}/app/js-api/custom-element/v1/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe('window.CustomElement = {};');
    }
    const other = await fetch(`${base}/app/js-api/custom-element/v1/other.js`);
    expect(other.headers.get('content-type')).toMatch(/^text\/html/); // a screen, not a file
  });

  it('answers every screen with index.html, never cached, under the CSP of the console plus the assets origin', async () => {
    for (const path of ['/app', '/app/', '/app/sign-in', '/app/p/abc/en/content?q=x']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<div id="root">');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("img-src 'self' https://assets.example.test data: blob:");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
    }
    const head = await fetch(`${base}/app/p/abc/en/content`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('serves hashed files for a year, and a missing one as 404 rather than the page', async () => {
    const js = await fetch(`${base}/app/assets/index-Ab12Cd34.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await js.text()).toBe('console.log(1)');
    const missing = await fetch(`${base}/app/assets/index-Old00000.js`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('<div id="root">');
    const escape = await fetch(`${base}/app/assets/..%2findex.html`);
    expect(escape.status).not.toBe(200);
  });

  it('leaves /app/api to the API, and methods other than GET and HEAD to the routes after it', async () => {
    const session = await fetch(`${base}/app/api/session`);
    expect(session.status).toBe(401);
    expect(session.headers.get('content-security-policy')).toBeNull();
    expect(await fetch(`${base}/app/api/nothing`).then((r) => r.status)).toBe(404);
    expect(await fetch(`${base}/app/sign-in`, { method: 'POST' }).then((r) => r.status)).toBe(404);
  });
});

describe('the editor home', () => {
  it('leads / on the app. host to /app/, and leaves / on other hosts alone', async () => {
    const base = await serve(dist);
    const port = new URL(base).port;
    const { request } = await import('node:http');
    const get = (host: string) =>
      new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, location: res.headers.location });
        });
        req.on('error', reject);
        req.end();
      });
    expect(await get(`app.lectern.example:${port}`)).toEqual({ status: 302, location: '/app/' });
    expect(await get(`manage.lectern.example:${port}`)).toMatchObject({ status: 404 });
  });
});

describe('the editor app without a build', () => {
  it('answers 503 with a page that says how to build it', async () => {
    for (const dir of [null, join(dist, 'not-there')]) {
      const base = await serve(dir);
      const response = await fetch(`${base}/app/p/abc/en/content`);
      expect(response.status).toBe(503);
      const page = await response.text();
      expect(page).toContain('pnpm --filter @lectern/editor build');
      expect(page).toContain('./lectern start');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
  });
});
