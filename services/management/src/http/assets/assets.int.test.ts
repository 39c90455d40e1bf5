import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const fixtures = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/assets';
const zero = '00000000-0000-0000-0000-000000000000';
let server: TestManagement;
let spanishId = '';

/** CRC-32 of PNG chunks. */
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** A valid RGB PNG of the given size (a gradient), built by hand. */
export function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rows.set([x % 256, y % 256, 128], y * (width * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface AssetJson {
  id: string;
  file_name: string;
  title: string | null;
  size: number;
  type: string;
  url: string;
  image_width: number | null;
  image_height: number | null;
  file_reference: { id: string; type: string };
  descriptions: { language: { id: string }; description: string | null }[];
  folder?: { id: string };
  collection: { reference: { id: string } | null };
  codename: string;
  external_id?: string;
  last_modified: string;
}

async function upload(name: string, bytes: Buffer, contentType: string): Promise<string> {
  const result = await server.client
    .uploadBinaryFile()
    .withData({ binaryData: bytes, contentType, filename: name, contentLength: bytes.length })
    .toPromise();
  return result.data.id;
}

beforeAll(async () => {
  server = await startTestManagement();
  const spanish = await server.client
    .addLanguage()
    .withData({ name: 'Spanish', codename: 'es-ES', is_active: true })
    .toPromise();
  spanishId = spanish.data.id;
  await server.client
    .setCollections()
    .withData([{ op: 'addInto', value: { name: 'Blog', codename: 'blog' } }])
    .toPromise();
  await server.client
    .addAssetFolders()
    .withData({ folders: [{ name: 'Images', codename: 'images', external_id: 'images', folders: [] }] })
    .toPromise();
});
afterAll(async () => {
  await server.close();
});

describe('assets through @kontent-ai/management-sdk', () => {
  it('uploads a PNG, adds an asset for it and serves its bytes at its url', async () => {
    const png = makePng(37, 21);
    const uploadRaw = await server.client
      .uploadBinaryFile()
      .withData({ binaryData: png, contentType: 'image/png', filename: 'pixel art.png', contentLength: png.length })
      .toPromise();
    expect(uploadRaw.rawData).toEqual({ id: uploadRaw.data.id, type: 'internal' });
    expect(shapeDifferences(uploadRaw.rawData, readFixture(`${fixtures}/fake-upload-binary-file.json`))).toEqual([]);

    const added = await server.client
      .addAsset()
      .withData(() => ({
        file_reference: { id: uploadRaw.data.id, type: 'internal' },
        title: 'Pixel art',
        external_id: 'pixel-art',
        descriptions: [{ language: { codename: 'es-ES' }, description: 'Arte de píxeles' }],
        folder: { codename: 'images' },
        collection: { reference: { codename: 'blog' } },
      }))
      .toPromise();
    const raw = added.rawData as unknown as AssetJson;
    expect(raw).toMatchObject({
      file_name: 'pixel art.png',
      title: 'Pixel art',
      size: png.length,
      type: 'image/png',
      image_width: 37,
      image_height: 21,
      file_reference: { id: uploadRaw.data.id, type: 'internal' },
      descriptions: [
        { language: { id: zero }, description: null },
        { language: { id: spanishId }, description: 'Arte de píxeles' },
      ],
      codename: 'pixel_art',
      external_id: 'pixel-art',
    });
    expect(raw.folder?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(raw.collection.reference?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(shapeDifferences(raw, readFixture(`${fixtures}/fake-add-asset.json`))).toEqual([]);

    const served = await fetch(raw.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-length')).toBe(String(png.length));
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect(new URL(raw.url).pathname).toBe(`/assets/${server.projectId}/${uploadRaw.data.id}/pixel%20art.png`);
    const wrongName = await fetch(raw.url.replace('pixel%20art.png', 'other.png'));
    expect(wrongName.status).toBe(404);
    await wrongName.body?.cancel();

    for (const query of [
      server.client.viewAsset().byAssetId(raw.id),
      server.client.viewAsset().byAssetCodename('pixel_art'),
      server.client.viewAsset().byAssetExternalId('pixel-art'),
    ]) {
      const view = await query.toPromise();
      expect(view.data.id).toBe(raw.id);
      expect(view.data.imageWidth).toBe(37);
      // The fake response references the collection by codename; real responses use ids (reference §1.3).
      const ignore = ['$.collection.reference.codename'];
      expect(shapeDifferences(view.rawData, readFixture(`${fixtures}/fake-view-asset.json`), { ignore })).toEqual([]);
    }
  });

  it('lists assets page by page and upserts, by external id creating (201) then updating (200)', async () => {
    const text = Buffer.from('Hello world from Lectern\n');
    const fileId = await upload('Hello.txt', text, 'text/plain');
    const created = await server.fetch('/assets/external-id/hello', {
      method: 'PUT',
      body: JSON.stringify({ file_reference: { id: fileId, type: 'internal' }, descriptions: [] }),
    });
    expect(created.status).toBe(201);
    const createdJson = (await created.json()) as AssetJson;
    expect(createdJson).toMatchObject({
      title: null,
      codename: 'hello_txt',
      image_width: null,
      image_height: null,
      type: 'text/plain',
      size: text.length,
      external_id: 'hello',
      collection: { reference: null },
    });
    expect(createdJson).not.toHaveProperty('folder');

    const updated = await server.client
      .upsertAsset()
      .byAssetExternalId('hello')
      .withData(() => ({
        file_reference: { id: fileId, type: 'internal' },
        title: 'Hello',
        descriptions: [{ language: { id: zero }, description: 'A greeting' }],
        folder: { external_id: 'images' },
      }))
      .toPromise();
    expect(updated.data).toMatchObject({ id: createdJson.id, title: 'Hello', codename: 'hello_txt' });
    expect(updated.rawData.descriptions).toEqual([
      { language: { id: zero }, description: 'A greeting' },
      { language: { id: spanishId }, description: null },
    ]);
    expect(shapeDifferences(updated.rawData, readFixture(`${fixtures}/fake-upsert-asset.json`))).toEqual([]);
    const toRoot = await server.client
      .upsertAsset()
      .byAssetCodename('hello_txt')
      .withData(() => ({ file_reference: { id: fileId, type: 'internal' }, descriptions: [], folder: { id: zero } }))
      .toPromise();
    expect(toRoot.rawData).not.toHaveProperty('folder');
    expect(toRoot.data.title).toBe('Hello');

    const missing = await server.fetch(`/assets/${'1'.repeat(8)}-1111-4111-8111-${'1'.repeat(12)}`, {
      method: 'PUT',
      body: JSON.stringify({ file_reference: { id: fileId, type: 'internal' }, descriptions: [] }),
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error_code: number }).error_code).toBe(105);

    for (let i = 0; i < 3; i++) {
      const id = await upload(`file-${i}.txt`, Buffer.from(`file ${i}`), 'text/plain');
      await server.client
        .addAsset()
        .withData(() => ({ file_reference: { id, type: 'internal' }, descriptions: [] }))
        .toPromise();
    }
    const all = await server.client.listAssets().toAllPromise();
    expect(all.data.items.map((a) => a.codename)).toEqual([
      'pixel_art',
      'hello_txt',
      'file_0_txt',
      'file_1_txt',
      'file_2_txt',
    ]);
    const list = await server.client.listAssets().toPromise();
    expect(
      shapeDifferences(list.rawData, readFixture(`${fixtures}/fake-list-assets.json`), {
        ignore: ['$.assets[0].collection.reference.codename'],
      }),
    ).toEqual([]);
    expect(list.rawData.pagination).toEqual({ continuation_token: null, next_page: null });
  });

  it('deletes an asset (204), after which its file can back a new asset', async () => {
    const fileId = await upload('gone.txt', Buffer.from('bye'), 'text/plain');
    const added = await server.client
      .addAsset()
      .withData(() => ({ file_reference: { id: fileId, type: 'internal' }, title: 'Gone', descriptions: [] }))
      .toPromise();
    await server.client.deleteAsset().byAssetCodename('gone').toPromise();
    const after = await server.fetch(`/assets/${added.data.id}`);
    expect(after.status).toBe(404);
    const again = await server.fetch(`/assets/${added.data.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    const reused = await server.fetch('/assets', {
      method: 'POST',
      body: JSON.stringify({ file_reference: { id: fileId, type: 'internal' }, title: 'Gone' }),
    });
    expect(reused.status).toBe(201);
    expect(((await reused.json()) as AssetJson).codename).toBe('gone');
  });
});
