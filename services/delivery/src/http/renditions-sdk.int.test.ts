/* eslint-disable @typescript-eslint/no-explicit-any -- SDK element values are read deeply in assertions */
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDeliveryClient } from '@kontent-ai/delivery-sdk';
import { listen } from '@lectern/http-kit';
import { readFixture, shapeDifferences } from '@lectern/testing';

/** The slice of services/lectern's `startTestStack()` used here, loaded by path (see sdk.int.test.ts). */
interface Stack {
  readonly projectId: string;
  readonly delivery: FastifyInstance;
  managementJson(
    path: string,
    options?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Record<string, any>>;
  managementFetch(path: string, init?: RequestInit): Promise<Response>;
  catchUp(): Promise<void>;
  close(): Promise<void>;
}
const stackModule = new URL('../../../../test/stack/test-stack.ts', import.meta.url).pathname;
const fixture =
  'delivery/kontent-ai+delivery-sdk-js/test/browser/isolated-tests/elements/assets/asset-rendition.spec.json';

let stack: Stack;
let deliveryUrl: string;
let assetId: string;
let renditionId: string;

/** A grey PNG of `width` × `height`. */
function greyPng(width: number, height: number): Buffer {
  const part = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    part('IHDR', header),
    part('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    part('IEND', Buffer.alloc(0)),
  ]);
}

/** Width and height from a PNG's header. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

const transformation = (o: { cw: number; ch: number; x: number; y: number; w: number; h: number }) => ({
  mode: 'rect',
  fit: 'clip',
  custom_width: o.cw,
  custom_height: o.ch,
  x: o.x,
  y: o.y,
  width: o.w,
  height: o.h,
});

async function article(codename: string, photo: unknown[]) {
  await stack.managementJson('/items', { body: { name: codename, codename, type: { codename: 'story' } } });
  await stack.managementJson(`/items/codename/${codename}/variants/codename/default`, {
    method: 'PUT',
    body: { elements: [{ element: { codename: 'photo' }, value: photo }] },
  });
  await stack.managementJson(`/items/codename/${codename}/variants/codename/default/publish`, { method: 'PUT' });
}

const client = (defaultRenditionPreset?: string) =>
  createDeliveryClient({
    environmentId: stack.projectId,
    proxy: { baseUrl: deliveryUrl },
    ...(defaultRenditionPreset === undefined ? {} : { defaultRenditionPreset }),
  });

beforeAll(async () => {
  const { startTestStack } = (await import(stackModule)) as {
    startTestStack: (options: { searchUrl?: string }) => Promise<Stack>;
  };
  stack = await startTestStack({ searchUrl: inject('searchUrl') });
  deliveryUrl = (await listen(stack.delivery, { host: '127.0.0.1', port: 0 })).url;
  await stack.managementJson('/types', {
    body: { name: 'Story', codename: 'story', elements: [{ name: 'Photo', codename: 'photo', type: 'asset' }] },
  });
  const png = greyPng(400, 300);
  const file = await stack.managementJson('/files/photo.png', {
    body: png,
    headers: { 'content-type': 'image/png', 'content-length': String(png.length) },
  });
  const asset = await stack.managementJson('/assets', {
    body: { file_reference: { id: file['id'], type: 'internal' } },
  });
  assetId = asset['id'];
  const rendition = await stack.managementJson(`/assets/${assetId}/renditions`, {
    body: { external_id: 'crop', transformation: transformation({ cw: 100, ch: 75, x: 200, y: 150, w: 200, h: 150 }) },
  });
  renditionId = rendition['rendition_id'];
  await article('with_rendition', [{ id: assetId, renditions: [{ external_id: 'crop' }] }]);
  await article('without_rendition', [{ id: assetId }]);
  await stack.catchUp();
}, 120_000);
afterAll(async () => {
  await stack.close();
});

describe('renditions in Delivery asset elements through @kontent-ai/delivery-sdk', () => {
  it('lists the rendition the variant chose under the default preset, in the recorded shape', async () => {
    const response = await client().item('with_rendition').toPromise();
    const asset = (response.data.item.elements['photo'] as any).value[0];
    expect(asset.renditions).toEqual({
      default: {
        rendition_id: renditionId,
        preset_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        width: 100,
        height: 75,
        query: 'w=100&h=75&fit=clip&rect=200,150,200,150',
        url: `${asset.url}?w=100&h=75&fit=clip&rect=200,150,200,150`,
      },
    });
    const raw = (response.response.data as any).item.elements.photo;
    const recorded = (readFixture(fixture) as any).item.elements.assetWithRenditionInDefaultPreset;
    expect(shapeDifferences(raw, recorded, { isExact: true })).toEqual([]);

    const other = await client().item('without_rendition').toPromise();
    expect((other.data.item.elements['photo'] as any).value[0].renditions).toEqual({});
  });

  it('applies the default preset to asset URLs with defaultRenditionPreset, and the URL serves the rendition', async () => {
    const response = await client('default').item('with_rendition').toPromise();
    const url = (response.data.item.elements['photo'] as any).value[0].url as string;
    expect(url).toMatch(/\/photo\.png\?w=100&h=75&fit=clip&rect=200,150,200,150$/);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(pngSize(Buffer.from(await served.arrayBuffer()))).toEqual({ width: 100, height: 75 });
  });

  it('re-renders the items using the asset when a rendition changes', async () => {
    await stack.managementJson(`/assets/${assetId}/renditions/${renditionId}`, {
      method: 'PUT',
      body: { transformation: transformation({ cw: 40, ch: 30, x: 0, y: 0, w: 400, h: 300 }) },
    });
    await stack.catchUp();
    const response = await client().item('with_rendition').toPromise();
    expect((response.data.item.elements['photo'] as any).value[0].renditions.default).toMatchObject({
      width: 40,
      height: 30,
      query: 'w=40&h=30&fit=clip&rect=0,0,400,300',
    });
  });

  it('keeps the chosen renditions in the Management variant and refuses renditions of other assets', async () => {
    const variant = await stack.managementJson('/items/codename/with_rendition/variants/codename/default', {
      method: 'GET',
    });
    expect(variant['elements'][0].value).toEqual([{ id: assetId, renditions: [{ id: renditionId }] }]);
    await stack.managementJson('/items', { body: { name: 'draft', codename: 'draft', type: { codename: 'story' } } });
    const bad = await stack.managementFetch('/items/codename/draft/variants/codename/default', {
      method: 'PUT',
      body: JSON.stringify({
        elements: [
          {
            element: { codename: 'photo' },
            value: [{ id: assetId, renditions: [{ id: '00000000-0000-4000-8000-000000000009' }] }],
          },
        ],
      }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('was not found for this asset');
  });
});
