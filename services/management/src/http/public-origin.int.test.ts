import { afterEach, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../testing/test-server.ts';
import { smallPng } from './variants/test-model.ts';

let server: TestManagement | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Uploads a file, adds an asset, and answers its `url` as the request with `headers` sees it. */
async function assetUrl(s: TestManagement, headers: Record<string, string> = {}): Promise<string> {
  const png = smallPng();
  const upload = await s.fetch('/files/a.png', {
    method: 'POST',
    body: png,
    headers: { 'content-type': 'image/png', 'content-length': String(png.length) },
  });
  const file = (await upload.json()) as { id: string };
  const asset = await s.fetch('/assets', {
    method: 'POST',
    body: JSON.stringify({ file_reference: { id: file.id, type: 'internal' } }),
    headers,
  });
  return ((await asset.json()) as { url: string }).url;
}

const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'cms.example.com' };
const forwardedManage = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'manage.example.com' };

// Asset URLs name the assets origin (never the Management one): the manage. host relabelled
// assets., else the assets listener's own URL, unless LECTERN_ASSETS_PUBLIC_URL says otherwise.
describe('asset URLs behind a proxy', () => {
  it('honour X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy', async () => {
    server = await startTestManagement({ trustedProxies: ['loopback'] });
    const url = await assetUrl(server, forwardedManage);
    expect(url).toMatch(
      new RegExp(`^https://assets\\.example\\.com/assets/${server.projectId}/[0-9a-f-]{36}/a\\.png$`),
    );
    // A host not named manage.: the assets listener; without the headers, too.
    expect((await assetUrl(server, forwarded)).startsWith(`${server.assetsUrl}/assets/`)).toBe(true);
    expect((await assetUrl(server)).startsWith(`${server.assetsUrl}/assets/`)).toBe(true);
  });

  it('ignore the headers from a peer that is not a trusted proxy', async () => {
    server = await startTestManagement({ trustedProxies: ['10.0.0.0/8'] });
    expect((await assetUrl(server, forwardedManage)).startsWith(`${server.assetsUrl}/assets/`)).toBe(true);
  });

  it('use the public URL when one is set, whatever the request says', async () => {
    server = await startTestManagement({ trustedProxies: ['loopback'], publicUrl: 'https://manage.example.org/' });
    expect(await assetUrl(server, forwarded)).toMatch(/^https:\/\/assets\.example\.org\/assets\//);
    const items = await server.fetch('/items');
    expect(items.status).toBe(200);
  });

  it('make paging next_page links public too', async () => {
    server = await startTestManagement({ trustedProxies: ['loopback'] });
    await server.fetch('/types', { method: 'POST', body: JSON.stringify({ name: 'T', codename: 't', elements: [] }) });
    for (let i = 0; i < 101; i += 1)
      await server.fetch('/items', {
        method: 'POST',
        body: JSON.stringify({ name: `I${i}`, type: { codename: 't' } }),
      });
    const page = (await (await server.fetch('/items', { headers: forwarded })).json()) as {
      pagination: { next_page: string | null };
    };
    expect(page.pagination.next_page).toBe(`https://cms.example.com/v2/projects/${server.projectId}/items`);
  });
});
