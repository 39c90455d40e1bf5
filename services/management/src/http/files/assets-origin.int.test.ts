import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

/*
 * Uploaded bytes are served on the assets origin only (issue 27, finding 3): an upload that could
 * run script (HTML, SVG, JavaScript) must never be a page of the Management origin, where the
 * operator console lives, and on the assets origin it is a sandboxed download.
 */

let server: TestManagement;
let managementOrigin: string;
const uploads: Record<string, { url: string; bytes: Buffer }> = {};

const html = Buffer.from('<!doctype html><script>fetch("/console").then(r=>r.text()).then(alert)</script>');
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
const script = Buffer.from('document.body.innerHTML = document.cookie;');

async function upload(
  target: TestManagement,
  name: string,
  contentType: string,
  bytes: Buffer,
): Promise<{ id: string; url: string }> {
  const file = await target.fetch(`/files/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(bytes),
  });
  expect(file.status).toBe(200);
  const { id } = (await file.json()) as { id: string };
  const asset = await target.fetch('/assets', {
    method: 'POST',
    body: JSON.stringify({ file_reference: { id, type: 'internal' } }),
  });
  expect(asset.status).toBe(201);
  return (await asset.json()) as { id: string; url: string };
}

beforeAll(async () => {
  server = await startTestManagement();
  managementOrigin = new URL(server.baseUrl).origin;
  const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#c03' } })
    .png()
    .toBuffer();
  const files: [string, string, Buffer][] = [
    ['x.html', 'text/html', html],
    ['x.svg', 'image/svg+xml', svg],
    ['x.js', 'text/javascript', script],
    ['x.png', 'image/png', png],
    ['résumé (1).html', 'text/html; charset=utf-8', html],
  ];
  for (const [name, type, bytes] of files)
    uploads[name] = { url: (await upload(server, name, type, bytes)).url, bytes };
});
afterAll(async () => {
  await server.close();
});

/** The URL's path and query on another origin. */
const on = (origin: string, url: string) => `${origin}${new URL(url).pathname}${new URL(url).search}`;

describe('asset URLs', () => {
  it('name the assets origin, not the Management origin, in v2 and v1 answers', async () => {
    for (const { url } of Object.values(uploads)) expect(url.startsWith(`${server.assetsUrl}/assets/`), url).toBe(true);
    expect(server.assetsUrl).not.toBe(managementOrigin);
    const v1 = await fetch(`${managementOrigin}/v1/projects/${server.projectId}/assets`, {
      headers: { authorization: `Bearer ${server.apiKey}` },
    });
    const listed = (await v1.json()) as { assets: { url: string }[] };
    expect(listed.assets.length).toBeGreaterThanOrEqual(5);
    for (const asset of listed.assets) expect(asset.url.startsWith(`${server.assetsUrl}/assets/`)).toBe(true);
  });

  it('name LECTERN_ASSETS_PUBLIC_URL when it is set, and the redirects follow it', async () => {
    const other = await startTestManagement({ assetsPublicUrl: 'https://files.example.com/' });
    try {
      const { url } = await upload(other, 'x.html', 'text/html', html);
      expect(url).toMatch(/^https:\/\/files\.example\.com\/assets\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/x\.html$/);
      const redirect = await fetch(on(new URL(other.baseUrl).origin, url), { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe(url);
    } finally {
      await other.close();
    }
  });
});

describe('the Management origin (the console origin)', () => {
  it('never answers uploaded bytes: a bodiless 302 to the same path and query on the assets origin', async () => {
    for (const [name, { url, bytes }] of Object.entries(uploads)) {
      const answer = await fetch(`${on(managementOrigin, url)}?w=4`, { redirect: 'manual' });
      expect(answer.status, name).toBe(302);
      expect(answer.headers.get('location')).toBe(`${url}?w=4`);
      const body = Buffer.from(await answer.arrayBuffer());
      expect(body.length, name).toBe(0);
      expect(body.includes(bytes.subarray(0, 20))).toBe(false);
    }
  });

  it("cannot satisfy the console's script-src 'self' with an uploaded script", async () => {
    const console = await fetch(`${managementOrigin}/console/sign-in`, { redirect: 'manual' });
    expect(console.headers.get('content-security-policy')).toContain("script-src 'self'");
    const uploaded = await fetch(on(managementOrigin, uploads['x.js']?.url ?? ''), { redirect: 'manual' });
    expect(uploaded.status).toBe(302);
    expect(uploaded.headers.get('content-type')).toBeNull();
  });
});

describe('the assets origin', () => {
  it('serves HTML, SVG and JavaScript as sandboxed downloads that are never sniffed', async () => {
    for (const name of ['x.html', 'x.svg', 'x.js']) {
      const { url, bytes } = uploads[name] ?? { url: '', bytes: Buffer.alloc(0) };
      const answer = await fetch(url);
      expect(answer.status, name).toBe(200);
      expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('content-disposition')).toBe(
        `attachment; filename="${name}"; filename*=UTF-8''${name}`,
      );
      const policy = answer.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/(^|;\s*)sandbox(;|$)/);
      expect(policy).toContain("default-src 'none'");
    }
  });

  it('encodes a file name outside ASCII per RFC 5987', async () => {
    const answer = await fetch(uploads['résumé (1).html']?.url ?? '');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toContain(`attachment; filename="r_sum_ (1).html"`);
    expect(answer.headers.get('content-disposition')).toContain(`filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.html`);
    await answer.body?.cancel();
  });

  it('shows a raster image inline with nosniff, transformed images too', async () => {
    const { url, bytes } = uploads['x.png'] ?? { url: '', bytes: Buffer.alloc(0) };
    const original = await fetch(url);
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(bytes)).toBe(true);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect(original.headers.get('x-content-type-options')).toBe('nosniff');
    expect(original.headers.get('content-disposition')).toMatch(/^inline; /);
    const resized = await fetch(`${url}?w=4&fm=webp`);
    expect(resized.status).toBe(200);
    expect(resized.headers.get('content-type')).toBe('image/webp');
    expect(resized.headers.get('x-content-type-options')).toBe('nosniff');
    expect(resized.headers.get('content-disposition')).toMatch(/^inline; /);
    await resized.body?.cancel();
  });

  it('keeps an SVG a sandboxed download when asked for a transformation', async () => {
    const answer = await fetch(`${uploads['x.svg']?.url ?? ''}?w=10`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(answer.headers.get('content-security-policy')).toContain('sandbox');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    await answer.body?.cancel();
  });

  it('serves nothing but binaries and health: no API, no console, no admin', async () => {
    for (const path of [`/v2/projects/${server.projectId}`, '/console/sign-in', '/admin/projects', '/assets/x']) {
      const answer = await fetch(`${server.assetsUrl}${path}`, {
        headers: { authorization: `Bearer ${server.apiKey}` },
      });
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(((await answer.json()) as { error_code: number }).error_code).toBeGreaterThan(0);
    }
    expect((await fetch(`${server.assetsUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.assetsUrl}/readyz`)).status).toBe(200);
    const metrics = await fetch(`${server.assetsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('service="assets"');
  });
});
