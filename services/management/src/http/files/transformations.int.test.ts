import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { inspectImage, quadrantColours, quadrantPng } from '../../testing/test-images.ts';

let server: TestManagement;
let imageUrl: string;
let assetId: string;

async function upload(name: string, contentType: string, body: Buffer): Promise<{ id: string; url: string }> {
  const file = await server.client
    .uploadBinaryFile()
    .withData({ binaryData: body, contentType, filename: name, contentLength: body.length })
    .toPromise();
  const asset = await server.fetch('/assets', {
    method: 'POST',
    body: JSON.stringify({ file_reference: { id: file.data.id, type: 'internal' } }),
  });
  return (await asset.json()) as { id: string; url: string };
}

async function get(query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${imageUrl}?${query}`, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function image(query: string, at?: { x: number; y: number }, headers?: Record<string, string>) {
  const { response, bytes } = await get(query, headers);
  expect(response.status, bytes.toString('utf8').slice(0, 300)).toBe(200);
  return { response, ...(await inspectImage(bytes, at)) };
}

beforeAll(async () => {
  server = await startTestManagement();
  const asset = await upload('photo.png', 'image/png', await quadrantPng({ width: 400, height: 300 }));
  imageUrl = asset.url;
  assetId = asset.id;
});
afterAll(async () => {
  await server.close();
});

describe('image transformations on asset URLs', () => {
  it('resizes by w and h with fit=clip (default), scale and crop', async () => {
    expect(await image('w=200')).toMatchObject({ format: 'png', width: 200, height: 150 });
    expect(await image('h=60')).toMatchObject({ width: 80, height: 60 });
    expect(await image('w=100&h=100')).toMatchObject({ width: 100, height: 75 });
    expect(await image('w=100&h=100&fit=scale')).toMatchObject({ width: 100, height: 100 });
    expect(await image('w=100&h=100&fit=crop')).toMatchObject({ width: 100, height: 100 });
    expect(await image('w=0.5')).toMatchObject({ width: 200, height: 150 });
    expect(await image('w=100&dpr=2')).toMatchObject({ width: 200, height: 150 });
  });

  it('crops by rect (pixels or fractions) before resizing', async () => {
    const topRight = await image('rect=200,0,200,150', { x: 100, y: 75 });
    expect(topRight).toMatchObject({ width: 200, height: 150, pixel: [...quadrantColours.topRight] });
    const bottomLeft = await image('rect=0,0.5,0.5,0.5&w=50', { x: 10, y: 10 });
    expect(bottomLeft).toMatchObject({ width: 50, height: 38, pixel: [...quadrantColours.bottomLeft] });
  });

  it('crops around a focal point, zoomed by fp-z', async () => {
    const corner = await image('w=40&h=40&fit=crop&crop=focalpoint&fp-x=1&fp-y=1&fp-z=4', { x: 20, y: 20 });
    expect(corner).toMatchObject({ width: 40, height: 40, pixel: [...quadrantColours.bottomRight] });
    const other = await image('w=40&h=40&fit=crop&crop=focalpoint&fp-x=0&fp-y=1&fp-z=4', { x: 20, y: 20 });
    expect(other.pixel).toEqual([...quadrantColours.bottomLeft]);
  });

  it('converts with fm, q and lossless, and picks WebP for auto=format when the client accepts it', async () => {
    const jpg = await image('w=100&fm=jpg&q=50');
    expect(jpg).toMatchObject({ format: 'jpeg', width: 100 });
    expect(jpg.response.headers.get('content-type')).toBe('image/jpeg');
    expect(await image('fm=webp&lossless=1', { x: 300, y: 250 })).toMatchObject({
      format: 'webp',
      pixel: [...quadrantColours.bottomRight],
    });
    expect((await image('w=64&fm=avif')).format).toBe('heif');
    const auto = await image('w=100&auto=format', undefined, { accept: 'image/avif,image/webp,*/*' });
    expect(auto.format).toBe('webp');
    expect(auto.response.headers.get('vary')).toBe('Accept');
    expect((await image('w=100&auto=format&fm=jpg', undefined, { accept: 'image/png' })).format).toBe('jpeg');
    expect((await image('w=100&auto=format', undefined, { accept: '*/*' })).format).toBe('png');
  });

  it('serves the original bytes for a query that changes nothing (data-ops backups fetch ?q=100)', async () => {
    const original = Buffer.from(await (await fetch(imageUrl)).arrayBuffer());
    for (const query of ['q=100', 'q=50', 'fm=png&dpr=1', 'auto=format']) {
      const { response, bytes } = await get(query);
      expect(response.status, query).toBe(200);
      expect(bytes.equals(original), query).toBe(true);
    }
    expect((await get('fm=png8')).bytes.equals(original)).toBe(false);
  });

  it('never upscales beyond the source, as Kontent.ai does (issue 27, finding 5)', async () => {
    const original = Buffer.from(await (await fetch(imageUrl)).arrayBuffer());
    for (const query of ['w=4096&h=4096&fit=scale', 'w=8000&dpr=2', 'w=4096&h=4096&fit=crop']) {
      const { response, bytes } = await get(query);
      expect(response.status, query).toBe(200);
      expect(bytes.equals(original), query).toBe(true);
    }
    expect(await image('w=4096&fm=webp')).toMatchObject({ format: 'webp', width: 400, height: 300 });
    expect(await image('w=1000&h=100&fit=crop')).toMatchObject({ width: 400, height: 100 });
  });

  it('serves a validator and answers 304 to a matching If-None-Match', async () => {
    const first = await get('w=120&fit=clip');
    const etag = first.response.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(first.response.headers.get('cache-control')).toContain('immutable');
    const reordered = await get('fit=CLIP&w=120');
    expect(reordered.response.headers.get('etag')).toBe(etag);
    expect(reordered.bytes.equals(first.bytes)).toBe(true);
    const revalidated = await fetch(`${imageUrl}?w=120`, { headers: { 'if-none-match': etag as string } });
    expect(revalidated.status).toBe(304);
  });

  it('refuses bad parameters with 400 in the Management error body, never a 5xx', async () => {
    for (const query of ['w=9000', 'h=abc', 'fit=fill', 'rect=0,0,10', 'w=10&h=10&fit=crop&rect=0,0,5,5', 'q=200']) {
      const { response, bytes } = await get(query);
      expect(response.status, query).toBe(400);
      const body = JSON.parse(bytes.toString('utf8')) as { error_code: number; message: string };
      expect(body.error_code, query).toBe(1007);
      expect(body.message, query).toContain('image transformation is invalid');
    }
    const outside = await get('rect=500,500,10,10');
    expect(outside.response.status).toBe(400);
  });

  it('serves other files unchanged whatever the query, as Kontent.ai does', async () => {
    const text = Buffer.from('not an image');
    const asset = await upload('notes.txt', 'text/plain', text);
    const response = await fetch(`${asset.url}?w=100&fm=webp`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(text)).toBe(true);
    expect(response.headers.get('content-type')).toBe('text/plain');
    const malformed = await fetch(`${asset.url}?w=abc`);
    expect(malformed.status).toBe(200);
    expect(Buffer.from(await malformed.arrayBuffer()).equals(text)).toBe(true);
  });

  it('fills transparency with bg, crops smartly and writes png8, pjpg and gif', async () => {
    const transparent = await sharp({
      create: { width: 20, height: 20, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const clear = await upload('clear.png', 'image/png', transparent);
    const filled = await fetch(`${clear.url}?bg=00ff00`);
    expect((await inspectImage(Buffer.from(await filled.arrayBuffer()), { x: 5, y: 5 })).pixel).toEqual([0, 255, 0]);
    expect(await image('w=50&h=50&fit=crop&crop=smart')).toMatchObject({ width: 50, height: 50 });
    const png8 = await get('w=50&fm=png8');
    expect(png8.bytes.readUInt8(25)).toBe(3); // IHDR colour type 3: palette
    expect((await image('w=50&fm=pjpg')).format).toBe('jpeg');
    expect((await image('w=50&fm=gif')).format).toBe('gif');
  });

  it('answers 400 for an image whose data cannot be decoded', async () => {
    const broken = await upload('broken.png', 'image/png', Buffer.from('definitely not a png'));
    const response = await fetch(`${broken.url}?w=10`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error_code: number }).error_code).toBe(1007);
  });

  it('applies a stored rendition by ?rendition=<id>, URL parameters overriding it', async () => {
    const added = await server.fetch(`/assets/${assetId}/renditions`, {
      method: 'POST',
      body: JSON.stringify({
        transformation: {
          mode: 'rect',
          fit: 'clip',
          custom_width: 100,
          custom_height: 75,
          x: 200,
          y: 150,
          width: 200,
          height: 150,
        },
      }),
    });
    expect(added.status).toBe(201);
    const renditionId = ((await added.json()) as { rendition_id: string }).rendition_id;
    const rendered = await image(`rendition=${renditionId}`, { x: 50, y: 40 });
    expect(rendered).toMatchObject({ width: 100, height: 75, pixel: [...quadrantColours.bottomRight] });
    expect(rendered.response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await image(`rendition=${renditionId}&w=50`)).toMatchObject({ width: 50, height: 38 });
    const unknown = await get('rendition=00000000-0000-4000-8000-000000000001');
    expect(unknown.response.status).toBe(404);
    expect((JSON.parse(unknown.bytes.toString('utf8')) as { error_code: number }).error_code).toBe(118);
    expect((await get('rendition=not-an-id')).response.status).toBe(404);
  });
});
