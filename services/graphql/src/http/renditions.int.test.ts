/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are read deeply in assertions */
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listenGraphql, startStack, type Stack } from '../testing/graphql-stack.ts';

/*
 * `_Asset.renditions` (`_AssetRenditionCollection`): the renditions a variant chose for an asset,
 * with their preset codename, read from the same index documents as Delivery.
 */

let stack: Stack;
let url: string;
let renditionId: string;
let pngBytes: number;
let closeGraphql: () => Promise<void>;

type Mapi = (
  path: string,
  options?: { method?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<Record<string, any>>;

/** A grey 8-bit PNG of `width` × `height`. */
function greyPng(width: number, height: number): Buffer {
  const part = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([head, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    part('IHDR', header),
    part('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    part('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  stack = await startStack();
  const mapi = stack.managementJson.bind(stack) as Mapi;
  await mapi('/types', {
    body: {
      name: 'Story',
      codename: 'story',
      elements: [
        { name: 'Photo', codename: 'photo', type: 'asset' },
        { name: 'Body', codename: 'body', type: 'rich_text' },
      ],
    },
  });
  const png = greyPng(64, 48);
  pngBytes = png.length;
  const file = await mapi('/files/photo.png', {
    body: png,
    headers: { 'content-type': 'image/png', 'content-length': String(png.length) },
  });
  const asset = await mapi('/assets', { body: { file_reference: { id: file['id'], type: 'internal' } } });
  const rendition = await mapi(`/assets/${asset['id']}/renditions`, {
    body: {
      transformation: {
        mode: 'rect',
        fit: 'clip',
        custom_width: 16,
        custom_height: 12,
        x: 8,
        y: 4,
        width: 32,
        height: 24,
      },
    },
  });
  renditionId = rendition['rendition_id'];
  const figure = `<figure data-asset-id="${asset['id']}"><img src="#" data-asset-id="${asset['id']}"></figure>`;
  for (const [codename, photo, body] of [
    ['cropped', [{ id: asset['id'], renditions: [{ id: renditionId }] }], '<p>Cropped</p>'],
    ['plain', [{ id: asset['id'] }], '<p>Plain</p>'],
    ['figure', [], `<p>Before</p>${figure}`],
  ] as const) {
    await mapi('/items', { body: { name: codename, codename, type: { codename: 'story' } } });
    await mapi(`/items/codename/${codename}/variants/codename/default`, {
      method: 'PUT',
      body: {
        elements: [
          { element: { codename: 'photo' }, value: photo },
          { element: { codename: 'body' }, value: body },
        ],
      },
    });
    await mapi(`/items/codename/${codename}/variants/codename/default/publish`, { method: 'PUT' });
  }
  await stack.catchUp();
  const listening = await listenGraphql(stack);
  closeGraphql = () => listening.close();
  url = `${listening.url}/${stack.projectId}`;
}, 120_000);
afterAll(async () => {
  await closeGraphql();
  await stack.close();
});

async function photo(codename: string): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `{ story(codename: "${codename}") { photo { items { width height
        renditions { offset limit totalCount items { preset preset_id rendition_id width height query } } } } } }`,
    }),
  });
  const body = (await res.json()) as { data?: any; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data.story.photo.items[0];
}

it('lists the chosen rendition in _AssetRenditionCollection with its preset', async () => {
  const asset = await photo('cropped');
  expect(asset).toMatchObject({ width: 64, height: 48 });
  expect(asset.renditions).toEqual({
    offset: 0,
    limit: 10,
    totalCount: 1,
    items: [
      {
        preset: 'default',
        preset_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        rendition_id: renditionId,
        width: 16,
        height: 12,
        query: 'w=16&h=12&fit=clip&rect=8,4,32,24',
      },
    ],
  });
});

it('answers an empty collection for an asset used without a rendition', async () => {
  expect((await photo('plain')).renditions).toEqual({ offset: 0, limit: 10, totalCount: 0, items: [] });
});

it('answers name, type and size of a rich text image as _Asset does (SPEC 2.8, issue 33)', async () => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `{ image: story(codename: "plain") { photo { items { name type size } } }
        story(codename: "figure") { body { assets { items { imageId url name type size width height } } } } }`,
    }),
  });
  const body = (await res.json()) as { data?: any; errors?: unknown };
  expect(body.errors).toBeUndefined();
  const [image] = body.data.story.body.assets.items;
  expect(image).toMatchObject({ name: 'photo.png', type: 'image/png', size: pngBytes, width: 64, height: 48 });
  expect(image.imageId).toMatch(/^[0-9a-f-]{36}$/);
  // the same file as an asset element shows it
  expect(body.data.image.photo.items[0]).toEqual({ name: image.name, type: image.type, size: image.size });
});
