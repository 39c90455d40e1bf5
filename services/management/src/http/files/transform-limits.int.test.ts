import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { defaultImageLimits } from '../../images/image-cache.ts';
import { inspectImage, quadrantPng } from '../../testing/test-images.ts';

/* Issue 27, finding 5: anonymous image requests must not amplify into unbounded work or storage. */

let server: TestManagement;
let small: string;
let large: string;

async function upload(name: string, body: Buffer): Promise<string> {
  const file = await server.client
    .uploadBinaryFile()
    .withData({ binaryData: body, contentType: 'image/png', filename: name, contentLength: body.length })
    .toPromise();
  const asset = await server.fetch('/assets', {
    method: 'POST',
    body: JSON.stringify({ file_reference: { id: file.data.id, type: 'internal' } }),
  });
  return ((await asset.json()) as { url: string }).url;
}

beforeAll(async () => {
  // The test clock stands still: every request falls in one second of the rate limit.
  server = await startTestManagement({
    imageLimits: { ...defaultImageLimits, transformsPerSecond: 3, maxPixels: 100_000 },
  });
  small = await upload('small.png', await quadrantPng({ width: 64, height: 48 }));
  large = await upload('large.png', await quadrantPng({ width: 400, height: 300 }));
});
afterAll(async () => {
  await server.close();
});

describe('limits of image transformation', () => {
  it('answers the 4096² request of a small PNG with the source itself, storing nothing', async () => {
    const original = Buffer.from(await (await fetch(small)).arrayBuffer());
    const response = await fetch(`${small}?w=4096&h=4096&fit=scale`);
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(original)).toBe(true);
    expect(await inspectImage(bytes)).toMatchObject({ width: 64, height: 48 });
  });

  it('refuses a source over the pixel limit with 400 in the Management error body', async () => {
    const response = await fetch(`${large}?w=100`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error_code: number; message: string };
    expect(body.error_code).toBe(1007);
    expect(body.message).toMatch(/400×300 pixels, more than the 100000/);
    // Its original is still served.
    expect((await fetch(large)).status).toBe(200);
  });

  it('answers a burst of new transformations with 429 and Retry-After, while made ones still answer 200', async () => {
    const made = await fetch(`${small}?w=10&fm=webp`);
    expect(made.status).toBe(200);
    const burst = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const response = await fetch(`${small}?w=${20 + i}&fm=webp`);
        return { response, body: Buffer.from(await response.arrayBuffer()) };
      }),
    );
    const limited = burst.filter((r) => r.response.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(6);
    for (const { response, body } of limited) {
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((JSON.parse(body.toString('utf8')) as { error_code: number }).error_code).toBe(10000);
    }
    for (let i = 0; i < 5; i++) expect((await fetch(`${small}?fm=webp&w=10`)).status).toBe(200);
  });
});
