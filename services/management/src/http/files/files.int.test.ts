import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement({ maxFileBytes: 1000 });
});
afterAll(async () => {
  await server.close();
});

interface ErrorJson {
  error_code: number;
  message: string;
  request_id: string;
}

const filesUrl = (name: string) => `${server.baseUrl}/projects/${server.projectId}/files/${name}`;
const auth = () => ({ authorization: `Bearer ${server.apiKey}` });

async function storedFiles(): Promise<number> {
  const row = await server.core.store.db
    .selectFrom('binary_files')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /files/{file_name}', () => {
  it('stores any body as it is, a JSON file too, and answers 200 {id, type}', async () => {
    const json = Buffer.from('{"not": "parsed"}');
    const response = await fetch(filesUrl('data.json'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: json,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string; type: string };
    expect(body.type).toBe('internal');
    const asset = await server.fetch('/assets', {
      method: 'POST',
      body: JSON.stringify({ file_reference: { id: body.id, type: 'internal' } }),
    });
    const url = ((await asset.json()) as { url: string; image_width: number | null }).url;
    const served = await fetch(url);
    expect(Buffer.from(await served.arrayBuffer()).equals(json)).toBe(true);
    expect(served.headers.get('content-type')).toBe('application/json');
  });

  it('requires Content-Type (400, error_code 205) and Content-Length (400, error_code 206)', async () => {
    const before = await storedFiles();
    const noType = await fetch(filesUrl('a.txt'), { method: 'POST', headers: auth(), body: new Uint8Array([1, 2]) });
    expect(noType.status).toBe(400);
    expect(((await noType.json()) as ErrorJson).error_code).toBe(205);

    const notMime = await fetch(filesUrl('a.txt'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'nonsense' },
      body: new Uint8Array([1, 2]),
    });
    expect(notMime.status).toBe(400);
    expect(((await notMime.json()) as ErrorJson).error_code).toBe(205);

    const chunked = await fetch(filesUrl('a.txt'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'text/plain' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('streamed without a length'));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(400);
    expect(((await chunked.json()) as ErrorJson).error_code).toBe(206);
    expect(await storedFiles()).toBe(before);
  });

  it('refuses a file over the configured size (413) and accepts one at the limit', async () => {
    const before = await storedFiles();
    const tooLarge = await fetch(filesUrl('big.bin'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: new Uint8Array(1001),
    });
    expect(tooLarge.status).toBe(413);
    const error = (await tooLarge.json()) as ErrorJson;
    expect(error.error_code).toBe(413);
    expect(error.message).toContain('1000 bytes');
    expect(await storedFiles()).toBe(before);

    const atLimit = await fetch(filesUrl('limit.bin'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: new Uint8Array(1000),
    });
    expect(atLimit.status).toBe(200);
    expect(await storedFiles()).toBe(before + 1);
  });

  it('reads no image size from what is not an image, and answers 404 for unknown binaries', async () => {
    const fake = await fetch(filesUrl('fake.png'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'image/png' },
      body: Buffer.from('not really a png'),
    });
    const { id } = (await fake.json()) as { id: string };
    const asset = await server.fetch('/assets', {
      method: 'POST',
      body: JSON.stringify({ file_reference: { id, type: 'internal' } }),
    });
    expect(await asset.json()).toMatchObject({ image_width: null, image_height: null, type: 'image/png' });
    for (const path of [`${server.projectId}/${id}/other.png`, `${server.projectId}/not-an-id/fake.png`]) {
      const missing = await fetch(`${server.baseUrl.replace(/\/v2$/, '')}/assets/${path}`);
      expect(missing.status).toBe(404);
      await missing.body?.cancel();
    }
  });

  it('stores nothing when the client goes away mid-upload', async () => {
    const before = await storedFiles();
    const url = new URL(filesUrl('cut.bin'));
    await new Promise<void>((resolve) => {
      const req = request(url, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/octet-stream', 'content-length': '900' },
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(100), () => setTimeout(() => req.destroy(), 50));
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await storedFiles()).toBe(before);
    const next = await fetch(filesUrl('after.txt'), {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'text/plain' },
      body: 'still fine',
    });
    expect(next.status).toBe(200);
  });

  it('needs a management key', async () => {
    const response = await fetch(filesUrl('a.txt'), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(response.status).toBe(401);
  });
});
