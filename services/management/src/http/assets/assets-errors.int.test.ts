import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

let server: TestManagement;
let usedFile = '';
let freeFile = '';
let assetId = '';

interface ErrorJson {
  error_code: number;
  validation_errors?: { message: string; path?: string }[];
}

async function upload(name: string): Promise<string> {
  const result = await server.client
    .uploadBinaryFile()
    .withData({ binaryData: Buffer.from(name), contentType: 'text/plain', filename: name })
    .toPromise();
  return result.data.id;
}

/** Everything a client can observe of the project's assets, and the outbox position. */
async function snapshot(): Promise<unknown> {
  const assets = await (await server.fetch('/assets')).json();
  const seq = await server.core.store.transaction((tx) => tx.outbox.latestSeq(server.projectId));
  return { assets, seq };
}

beforeAll(async () => {
  server = await startTestManagement();
  usedFile = await upload('used.txt');
  freeFile = await upload('free.txt');
  const response = await server.fetch('/assets', {
    method: 'POST',
    body: JSON.stringify({ file_reference: { id: usedFile, type: 'internal' }, title: 'Used', external_id: 'used' }),
  });
  assetId = ((await response.json()) as { id: string }).id;
});
afterAll(async () => {
  await server.close();
});

describe('malformed asset requests', () => {
  const ref = (id: string) => ({ id, type: 'internal' });

  it('answers 400 with validation errors and changes nothing', async () => {
    const before = await snapshot();
    const cases: [string, unknown, string][] = [
      ['not an object', [1, 2], ''],
      ['no file reference', { title: 'x' }, 'file_reference'],
      ['file reference of the wrong type', { file_reference: 'abc' }, 'file_reference'],
      ['file reference not a guid', { file_reference: ref('nope') }, 'file_reference.id'],
      ['file reference of another kind', { file_reference: { id: freeFile, type: 'external' } }, 'file_reference.type'],
      ['unknown file', { file_reference: ref('0badf11e-0000-4000-8000-000000000000') }, 'file_reference.id'],
      ['file used by another asset', { file_reference: ref(usedFile) }, 'file_reference.id'],
      ['title not a string', { file_reference: ref(freeFile), title: 42 }, 'title'],
      ['bad codename', { file_reference: ref(freeFile), codename: 'Not A Codename' }, 'codename'],
      ['taken external id', { file_reference: ref(freeFile), external_id: 'used' }, 'external_id'],
      ['taken codename', { file_reference: ref(freeFile), codename: 'used' }, 'codename'],
      ['descriptions not an array', { file_reference: ref(freeFile), descriptions: {} }, 'descriptions'],
      [
        'two identifiers in a language reference',
        {
          file_reference: ref(freeFile),
          descriptions: [
            { language: { id: '00000000-0000-0000-0000-000000000000', codename: 'default' }, description: 'x' },
          ],
        },
        'descriptions[0].language',
      ],
      [
        'unknown language',
        { file_reference: ref(freeFile), descriptions: [{ language: { codename: 'xx' }, description: 'x' }] },
        'descriptions[0].language',
      ],
      [
        'description not a string',
        { file_reference: ref(freeFile), descriptions: [{ language: { codename: 'default' }, description: 5 }] },
        'descriptions[0].description',
      ],
      ['unknown folder', { file_reference: ref(freeFile), folder: { codename: 'nope' } }, 'folder'],
      [
        'two identifiers in a folder reference',
        { file_reference: ref(freeFile), folder: { codename: 'a', external_id: 'b' } },
        'folder',
      ],
      [
        'collection without reference',
        { file_reference: ref(freeFile), collection: { codename: 'default' } },
        'collection',
      ],
      [
        'unknown collection',
        { file_reference: ref(freeFile), collection: { reference: { codename: 'nope' } } },
        'collection.reference',
      ],
      ['elements not an array', { file_reference: ref(freeFile), elements: 'x' }, 'elements'],
    ];
    for (const [name, body, path] of cases) {
      const response = await server.fetch('/assets', { method: 'POST', body: JSON.stringify(body) });
      expect(response.status, name).toBe(400);
      const error = (await response.json()) as ErrorJson;
      expect(error.error_code, name).toBe(5);
      if (path !== '')
        expect(
          error.validation_errors?.map((e) => e.path),
          name,
        ).toContain(path);
    }

    const badUpsert = await server.fetch(`/assets/${assetId}`, {
      method: 'PUT',
      body: JSON.stringify({ title: ['x'], file_reference: ref('0badf11e-0000-4000-8000-000000000000') }),
    });
    expect(badUpsert.status).toBe(400);
    expect(((await badUpsert.json()) as ErrorJson).validation_errors).toHaveLength(2);
    const createWithoutFile = await server.fetch('/assets/external-id/new-one', {
      method: 'PUT',
      body: JSON.stringify({ title: 'No file' }),
    });
    expect(createWithoutFile.status).toBe(400);
    const malformedJson = await server.fetch('/assets', { method: 'POST', body: '{"file_reference": ' });
    expect(malformedJson.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('lets exactly one of concurrent requests take a file', async () => {
    const file = await upload('contested.txt');
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.fetch('/assets', {
          method: 'POST',
          body: JSON.stringify({ file_reference: { id: file, type: 'internal' }, title: `Contender ${i}` }),
        }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400, 400]);
    await Promise.all(responses.map((r) => r.body?.cancel()));
  });

  it('answers 404 for unknown assets and 400 for a bad continuation token', async () => {
    for (const path of ['/assets/codename/nope', '/assets/external-id/nope', '/assets/not-a-guid']) {
      for (const method of ['GET', 'DELETE']) {
        const response = await server.fetch(path, { method });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(((await response.json()) as ErrorJson).error_code).toBe(105);
      }
    }
    const updateMissing = await server.fetch('/assets/codename/nope', {
      method: 'PUT',
      body: JSON.stringify({ file_reference: { id: freeFile, type: 'internal' } }),
    });
    expect(updateMissing.status).toBe(404);
    const badToken = await server.fetch('/assets', { headers: { 'x-continuation': 'garbage' } });
    expect(badToken.status).toBe(400);
    expect(((await badToken.json()) as ErrorJson).error_code).toBe(1007);
  });

  it('pages a long list with x-continuation', async () => {
    const created: string[] = [];
    for (let i = 0; i < 101; i++) {
      const file = await upload(`page-${i}.txt`);
      const response = await server.fetch('/assets', {
        method: 'POST',
        body: JSON.stringify({ file_reference: { id: file, type: 'internal' } }),
      });
      created.push(((await response.json()) as { id: string }).id);
    }
    const first = (await (await server.fetch('/assets')).json()) as {
      assets: { id: string }[];
      pagination: { continuation_token: string | null; next_page: string | null };
    };
    expect(first.assets).toHaveLength(100);
    expect(first.pagination.next_page).toBe(`${server.baseUrl}/projects/${server.projectId}/assets`);
    const second = (await (
      await server.fetch('/assets', { headers: { 'x-continuation': first.pagination.continuation_token ?? '' } })
    ).json()) as typeof first;
    expect(second.pagination).toEqual({ continuation_token: null, next_page: null });
    expect([...first.assets, ...second.assets].map((a) => a.id).slice(-101)).toEqual(created);
    expect(first.assets[0]?.id).toBe(assetId);
    const all = await server.client.listAssets().toAllPromise();
    expect(all.data.items).toHaveLength(103);
  });
});
