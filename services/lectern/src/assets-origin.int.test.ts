import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@lectern/config';
import { startEmbedded, type EmbeddedServer } from './embedded.ts';
import { startSettings } from './settings.ts';

/*
 * `lectern start` serves uploaded bytes on an origin of their own (issue 27, finding 3): its own
 * port, and the `assets.` host on the host-routing port. Asset URLs in Management and Delivery
 * answers name it; the Management (console) origin only redirects there.
 */

let server: EmbeddedServer;
let dataDir: string;
let projectId: string;
let managementKey: string;
let previewKey: string;
let assetUrl: string;
const page = Buffer.from('<!doctype html><script>document.title = document.cookie</script>');

async function management(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.urls.management}/v2/projects/${projectId}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${managementKey}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A GET to the host-routing port as a client that resolved `host` to it. */
function routed(host: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const port = Number(new URL(server.urls.routed ?? '').port);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `${host}:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lectern-assets-origin-'));
  const config = loadConfig({
    settings: startSettings,
    env: { LECTERN_DATA_DIR: dataDir, LECTERN_PORT_BASE: '0', LECTERN_LOG_LEVEL: 'silent', LECTERN_HOST_ROUTING_PORT: '0' },
  });
  server = await startEmbedded(config);
  projectId = server.demo?.project.id ?? '';
  const keyOf = (kind: string) => server.demo?.keys.find((k) => k.key.kind === kind)?.secret ?? '';
  managementKey = keyOf('management');
  previewKey = keyOf('preview_primary');
  const file = await management('/files/x.html', {
    method: 'POST',
    headers: { 'content-type': 'text/html' },
    body: new Uint8Array(page),
  });
  const asset = await management('/assets', {
    method: 'POST',
    body: JSON.stringify({ file_reference: { id: file['id'], type: 'internal' }, codename: 'page' }),
  });
  assetUrl = asset['url'] as string;
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('lectern start', () => {
  it('serves asset binaries on a port of their own, which Management asset URLs name', async () => {
    expect(server.urls.assets).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.urls.assets).not.toBe(server.urls.management);
    expect(assetUrl.startsWith(`${server.urls.assets}/assets/${projectId}/`)).toBe(true);
    const answer = await fetch(assetUrl);
    expect(Buffer.from(await answer.arrayBuffer()).equals(page)).toBe(true);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(answer.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('answers the old Management-origin URL with a redirect, never the bytes', async () => {
    const path = new URL(assetUrl).pathname;
    const answer = await fetch(`${server.urls.management}${path}`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(assetUrl);
    expect((await answer.arrayBuffer()).byteLength).toBe(0);
  });

  it('renders asset URLs of the assets origin into Delivery answers', async () => {
    await management('/types', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Page holder',
        codename: 'page_holder',
        elements: [{ name: 'File', codename: 'file', type: 'asset' }],
      }),
    });
    await management('/items', {
      method: 'POST',
      body: JSON.stringify({ name: 'Holder', codename: 'holder', type: { codename: 'page_holder' } }),
    });
    await management('/items/codename/holder/variants/codename/default', {
      method: 'PUT',
      body: JSON.stringify({ elements: [{ element: { codename: 'file' }, value: [{ codename: 'page' }] }] }),
    });
    let url: unknown;
    for (let tries = 0; tries < 100 && url === undefined; tries++) {
      const answer = await fetch(`${server.urls.preview}/${projectId}/items/holder`, {
        headers: { authorization: `Bearer ${previewKey}` },
      });
      if (answer.status === 200) {
        const body = (await answer.json()) as { item: { elements: { file: { value: { url: string }[] } } } };
        url = body.item.elements.file.value[0]?.url;
      } else await answer.body?.cancel();
      if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(String(url).startsWith(`${server.urls.assets}/assets/`)).toBe(true);
    expect(url).toBe(assetUrl);
  });
});

describe('the host-routing port', () => {
  it('serves asset binaries on the assets. host, which Management asset URLs name there', async () => {
    const port = new URL(server.urls.routed ?? '').port;
    const listed = await routed('manage.lectern.example', `/v2/projects/${projectId}/assets/codename/page`, {
      authorization: `Bearer ${managementKey}`,
    });
    expect(listed.status).toBe(200);
    const url = (JSON.parse(listed.body.toString('utf8')) as { url: string }).url;
    const path = new URL(assetUrl).pathname;
    expect(url).toBe(`http://assets.lectern.example:${port}${path}`);

    const bytes = await routed('assets.lectern.example', path);
    expect(bytes.status).toBe(200);
    expect(bytes.body.equals(page)).toBe(true);
    expect(bytes.headers['x-content-type-options']).toBe('nosniff');
    expect(bytes.headers['content-disposition']).toMatch(/^attachment; /);

    const redirect = await routed('manage.lectern.example', path);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe(url);
    expect(redirect.body.length).toBe(0);
  });

  it('serves no API and no console on the assets. host', async () => {
    for (const path of [`/v2/projects/${projectId}`, '/console/sign-in']) {
      const answer = await routed('assets.lectern.example', path, { authorization: `Bearer ${managementKey}` });
      expect(answer.status, path).toBe(404);
    }
  });
});
