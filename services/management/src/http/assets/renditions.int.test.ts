import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { smallPng } from '../variants/test-model.ts';

type Json = Record<string, unknown>;
const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/assset-renditions';
let server: TestManagement;
let assetId: string;

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

const rect = (w: number, h: number, cw: number, ch: number) => ({
  mode: 'rect',
  fit: 'clip',
  custom_width: cw,
  custom_height: ch,
  x: 0,
  y: 0,
  width: w,
  height: h,
});

beforeAll(async () => {
  server = await startTestManagement();
  const png = smallPng();
  const file = await server.client
    .uploadBinaryFile()
    .withData({ binaryData: png, contentType: 'image/png', filename: 'tiny.png', contentLength: png.length })
    .toPromise();
  const asset = await call('/assets/external-id/tiny', 'PUT', {
    file_reference: { id: file.data.id, type: 'internal' },
  });
  assetId = asset.json['id'] as string;
});
afterAll(async () => {
  await server.close();
});

describe('asset renditions through @kontent-ai/management-sdk', () => {
  it('adds, lists, views and modifies a rendition in the recorded shapes', async () => {
    const added = await server.client
      .addAssetRendition()
      .byAssetExternalId('tiny')
      .withData({ external_id: 'thumb', transformation: rect(2, 2, 1, 1) as never })
      .toPromise();
    const raw = added.rawData as unknown as Json;
    expect(raw).toMatchObject({ asset_id: assetId, external_id: 'thumb', transformation: rect(2, 2, 1, 1) });
    expect(shapeDifferences(raw, readFixture(`${fakes}/fake-add-asset-rendition.json`), { isExact: true })).toEqual([]);
    const list = await server.client.listAssetRenditions().byAssetId(assetId).toPromise();
    expect(list.rawData.asset_renditions.map((r) => r.rendition_id)).toEqual([raw['rendition_id']]);
    expect(shapeDifferences(list.rawData, readFixture(`${fakes}/fake-list-asset-renditions.json`))).toEqual([]);
    const viewed = await server.client
      .viewAssetRendition()
      .byAssetId(assetId)
      .byRenditionExternalId('thumb')
      .toPromise();
    expect(viewed.rawData).toEqual(raw);
    const modified = await server.client
      .modifyAssetRendition()
      .byAssetId(assetId)
      .byRenditionId(raw['rendition_id'] as string)
      .withData({ transformation: rect(2, 1, 2, 1) as never })
      .toPromise();
    expect((modified.rawData as unknown as Json)['transformation']).toEqual(rect(2, 1, 2, 1));
    expect(shapeDifferences(modified.rawData, readFixture(`${fakes}/fake-modify-asset-rendition.json`))).toEqual([]);
  });

  it('refuses a rectangle outside the image, an output larger than it and unknown renditions', async () => {
    const bad = await call(`/assets/${assetId}/renditions`, 'POST', {
      transformation: { ...rect(3, 2, 4, 1), mode: 'scale' },
    });
    expect(bad.status).toBe(400);
    expect((bad.json['validation_errors'] as Json[]).map((v) => v['path'])).toEqual([
      'transformation.mode',
      'transformation.width',
      'transformation.custom_width',
    ]);
    expect((await call(`/assets/${assetId}/renditions`, 'GET')).json['asset_renditions']).toHaveLength(1);
    const missing = await call(`/assets/${assetId}/renditions/external-id/none`, 'GET');
    expect(missing.status).toBe(404);
    expect(missing.json['error_code']).toBe(118);
    expect((await call('/assets/external-id/nope/renditions', 'GET')).status).toBe(404);
  });
});
