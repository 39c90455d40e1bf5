import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomIds } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
import {
  createTestClock,
  createTestDatabase,
  openTestCore,
  snapshotChanges,
  storeSnapshot,
  type TestCore,
} from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../testing/test-server.ts';
import { seedContentModel } from './variants/test-model.ts';

/*
 * Regression tests of issue 12: bad input never yields a 5xx or a foreign error body, and stores
 * nothing. Each case is an example a fuzzer found; every engine answers the same.
 */

type Json = Record<string, unknown>;
const postgresUrl = inject('postgresUrl');
const variantPath = '/items/codename/target/variants/codename/default';
const engines: { name: string; open: () => Promise<TestCore> }[] = [
  { name: 'PGlite', open: openTestCore },
  ...(postgresUrl
    ? [
        {
          name: 'PostgreSQL',
          open: async () => ({
            store: await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
            clock: createTestClock(),
            ids: randomIds,
          }),
        },
      ]
    : []),
];

describe.each(engines)('bad input on $name', ({ open }) => {
  let server: TestManagement;
  let fileId: string;
  let assetId: string;

  const snapshot = () => storeSnapshot({ db: server.core.store.db });

  async function send(path: string, init: RequestInit = {}): Promise<{ status: number; json: Json }> {
    const response = await server.fetch(path, init);
    const text = await response.text();
    return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
  }

  /** Sends a request that must be refused: the status, SPEC 7.2 body, problem paths, and nothing stored. */
  async function refused(
    path: string,
    init: RequestInit,
    expected: { status?: number; errorCode: number; paths?: string[]; message?: string },
  ): Promise<Json> {
    const before = await snapshot();
    const { status, json } = await send(path, init);
    expect([path, status]).toEqual([path, expected.status ?? 400]);
    expect(json).toMatchObject({
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      error_code: expected.errorCode,
      message: expect.any(String),
    });
    if (expected.paths)
      expect(((json['validation_errors'] ?? []) as Json[]).map((e) => e['path'])).toEqual(expected.paths);
    if (expected.message) expect(String(json['message'])).toContain(expected.message);
    expect(snapshotChanges(before, await snapshot())).toEqual([]);
    return json;
  }

  const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });

  /** Writes raw bytes on a new connection and reads until the server closes it (or 10 s pass). */
  function exchange(request: string): Promise<string> {
    const url = new URL(server.baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(request, 'latin1'));
      let text = '';
      const timer = setTimeout(() => socket.destroy(new Error(`no close within 10 s after: ${text}`)), 10_000);
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => (clearTimeout(timer), resolve(text)));
      socket.on('error', reject);
    });
  }

  beforeAll(async () => {
    server = await startTestManagement({ core: await open() });
    await seedContentModel(server);
    await send('/items', json('POST', { name: 'Target', codename: 'target', type: { codename: 'article' } }));
    await send(variantPath, json('PUT', { elements: [{ element: { codename: 'title' }, value: 'Kept' }] }));
    const upload = await server.fetch('/files/hello.txt', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-length': '5' },
      body: 'hello',
    });
    fileId = ((await upload.json()) as { id: string }).id;
    const asset = await send('/assets', json('POST', { file_reference: { id: fileId, type: 'internal' } }));
    assetId = String(asset.json['id']);
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses U+0000 in any stored string with the field named (was 500)', async () => {
    const nul = 'a\u0000b';
    const cases: [string, RequestInit, string][] = [
      ['/items', json('POST', { name: nul, type: { codename: 'article' } }), 'name'],
      ['/items', json('POST', { name: 'ok', codename: nul, type: { codename: 'article' } }), 'codename'],
      ['/items', json('POST', { name: 'ok', external_id: nul, type: { codename: 'article' } }), 'external_id'],
      [variantPath, json('PUT', { elements: [{ element: { codename: 'title' }, value: nul }] }), 'elements[0].value'],
      [
        variantPath,
        json('PUT', { elements: [{ element: { codename: 'slug' }, value: nul, mode: 'custom' }] }),
        'elements[0].value',
      ],
      ['/types', json('POST', { name: nul, codename: 'nul_type', elements: [] }), 'name'],
      [
        '/taxonomies',
        json('POST', { name: 'Tax', codename: 'tax', terms: [{ name: nul, terms: [] }] }),
        'terms[0].name',
      ],
      [`/assets/${assetId}`, json('PUT', { file_reference: { id: fileId, type: 'internal' }, title: nul }), 'title'],
      ['/languages', json('POST', { name: nul, codename: 'xx', is_active: true }), 'name'],
      ['/spaces', json('POST', { [nul]: 'x', name: 'Space' }), '"a\\u0000b"'],
    ];
    for (const [path, init, field] of cases) {
      const body = await refused(path, init, { errorCode: 5, paths: [field] });
      expect(JSON.stringify(body)).toContain('U+0000');
    }
  });

  it("refuses '%00' in an identifier path with 400 naming the segment (was 500)", async () => {
    for (const [path, method] of [
      ['/items/codename/a%00b', 'GET'],
      ['/items/external-id/a%00b', 'GET'],
      ['/items/%00', 'GET'],
      ['/types/codename/x%00', 'DELETE'],
      [`${variantPath.replace('target', 'tar%00get')}`, 'GET'],
    ] as const) {
      await refused(path, { method }, { errorCode: 6, message: '%00' });
    }
    await refused('/items/external-id/a%00b', json('PUT', { name: 'X', type: { codename: 'article' } }), {
      errorCode: 6,
      message: '%00',
    });
    await refused('/items?continuationToken=%00', { method: 'GET' }, { errorCode: 1007 });
  });

  it('refuses malformed percent-encoding in a path parameter with 400 (was the router URIError, 500)', async () => {
    await refused('/items/codename/%E0%A4%A', { method: 'GET' }, { errorCode: 6, message: '%E0%A4%A' });
    await refused(
      '/files/%zz.txt',
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
      { errorCode: 6, message: '%zz.txt' },
    );
  });

  it('refuses a body that does not decompress as its Content-Encoding says (was 500)', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      await refused(
        '/items',
        { method: 'POST', headers: { 'content-encoding': encoding }, body: 'not compressed' },
        { errorCode: 5, message: `Content-Encoding: ${encoding}` },
      );
    }
    await refused(
      '/items',
      { method: 'POST', headers: { 'content-encoding': 'xx' }, body: '{}' },
      { status: 415, errorCode: 415 },
    );
    // A body that is what its header says is read as usual.
    const zipped = gzipSync(JSON.stringify({ name: 'Zipped', type: { codename: 'article' } }));
    const before = await snapshot();
    const created = await send('/items', {
      method: 'POST',
      headers: { 'content-encoding': 'gzip' },
      body: new Uint8Array(zipped),
    });
    expect(created.status).toBe(201);
    // The snapshot the refusals are checked with does see a stored change.
    expect(snapshotChanges(before, await snapshot())).toEqual([
      'audit_log',
      'content_items',
      'outbox_events',
      'project_sequences',
    ]);
  });

  it('refuses a JSON body nested deeper than 128 levels before parsing it (800 KB of [[[…]]] held the loop 200 ms)', async () => {
    const refusal = await refused(
      '/items',
      { method: 'POST', body: `${'['.repeat(400_000)}${']'.repeat(400_000)}` },
      { errorCode: 5 },
    );
    expect(JSON.stringify(refusal['validation_errors'])).toContain('deeper than 128 levels');
  });

  it('answers a URL over 16 KiB with 431 in the error body, and HEAD with no body', async () => {
    const long = `/items?x=${'a'.repeat(17_000)}`;
    await refused(long, { method: 'GET' }, { status: 431, errorCode: 431 });
    const url = new URL(`${server.baseUrl}/projects/${server.projectId}${long}`);
    const answer = await exchange(`HEAD ${url.pathname}${url.search} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer.endsWith('\r\n\r\n')).toBe(true);
  });

  it('answers a Content-Length over the JSON limit with 413 at once, not after the whole body', async () => {
    const path = new URL(`${server.baseUrl}/projects/${server.projectId}/items`).pathname;
    const answer = await exchange(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error_code: 413 });
  });

  it('answers a request followed by bytes that are no request, then closes', async () => {
    const path = new URL(`${server.baseUrl}/projects/${server.projectId}/items/codename/target`).pathname;
    const answer = await exchange(
      `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.apiKey}\r\nContent-Length: 0\r\n\r\n,garbage%[`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('blames the value, not the path identifier, for a lone surrogate in a variant text value', async () => {
    await refused(variantPath, json('PUT', { elements: [{ element: { codename: 'title' }, value: 'ok \ud800' }] }), {
      errorCode: 5,
      paths: ['elements[0].value'],
    });
    await refused('/items', json('POST', { name: '\udc00', type: { codename: 'article' } }), {
      errorCode: 5,
      paths: ['name'],
    });
  });

  it('counts lengths in characters, not UTF-16 units', async () => {
    const emoji = '😀';
    const item = await send('/items', json('POST', { name: emoji.repeat(150), type: { codename: 'article' } }));
    expect(item.status).toBe(201);
    await refused('/items', json('POST', { name: emoji.repeat(201), type: { codename: 'article' } }), {
      errorCode: 5,
      paths: ['name'],
    });
    // The title element allows 60 characters.
    const title = await send(
      variantPath,
      json('PUT', { elements: [{ element: { codename: 'title' }, value: emoji.repeat(60) }] }),
    );
    expect(title.status).toBe(200);
  });

  it("refuses a space's root item that does not exist, by id or codename", async () => {
    const missing = '11111111-1111-4111-8111-111111111111';
    for (const ref of [{ id: missing }, { codename: 'missing_item' }]) {
      await refused('/spaces', json('POST', { name: 'Space', web_spotlight_root_item: ref }), {
        errorCode: 5,
        paths: ['web_spotlight_root_item'],
      });
    }
    const added = await send(
      '/spaces',
      json('POST', { name: 'Space', web_spotlight_root_item: { codename: 'target' } }),
    );
    expect(added.status).toBe(201);
    const target = await send('/items/codename/target');
    expect(added.json['web_spotlight_root_item']).toEqual({ id: target.json['id'] });
    await refused(
      '/spaces/codename/space',
      json('PATCH', [{ op: 'replace', property_name: 'web_spotlight_root_item', value: { id: missing } }]),
      { errorCode: 5, paths: ['[0].value'] },
    );
  });

  it('requires file_reference on PUT /assets/{id} (SPEC 4.2)', async () => {
    await refused(`/assets/${assetId}`, json('PUT', { title: 'No file' }), { errorCode: 5, paths: ['file_reference'] });
    const kept = await send(
      `/assets/${assetId}`,
      json('PUT', { file_reference: { id: fileId, type: 'internal' }, title: 'Same file' }),
    );
    expect(kept.status).toBe(200);
  });

  it('refuses PATCH op names in another case than documented', async () => {
    const cases: [string, unknown[]][] = [
      ['/languages/codename/default', [{ op: 'REPLACE', property_name: 'name', value: 'x' }]],
      ['/types/codename/article', [{ op: 'Replace', path: '/name', value: 'x' }]],
      ['/spaces/codename/space', [{ op: 'REPLACE', property_name: 'name', value: 'x' }]],
      ['/taxonomies/codename/topics', [{ op: 'REPLACE', property_name: 'name', value: 'x' }]],
      ['/collections', [{ op: 'ADDINTO', value: { name: 'C', codename: 'c' } }]],
      ['/folders', [{ op: 'AddInto', value: { name: 'F' } }]],
    ];
    for (const [path, ops] of cases) await refused(path, json('PATCH', ops), { errorCode: 5, paths: ['[0].op'] });
  });

  it('names the x-continuation header when its token is malformed', async () => {
    const body = await refused(
      '/items',
      { method: 'GET', headers: { 'x-continuation': 'garbage' } },
      { errorCode: 1007 },
    );
    expect(JSON.stringify(body)).toMatch(/x-continuation/i);
    expect(JSON.stringify(body)).not.toContain('continuationToken');
  });
});

describe('PUT /assets/{id} with LECTERN_MANAGEMENT_ASSET_FILE_OPTIONAL_ON_UPDATE', () => {
  it('keeps the file when the update leaves file_reference out, as the Kontent.ai reference allows', async () => {
    const server = await startTestManagement({ isAssetFileOptionalOnUpdate: true });
    try {
      const upload = await server.fetch('/files/a.txt', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'content-length': '1' },
        body: 'a',
      });
      const file = ((await upload.json()) as { id: string }).id;
      const created = await server.fetch('/assets/external-id/kept', {
        method: 'PUT',
        body: JSON.stringify({ file_reference: { id: file, type: 'internal' } }),
      });
      expect(created.status).toBe(201);
      const updated = await server.fetch('/assets/external-id/kept', {
        method: 'PUT',
        body: JSON.stringify({ title: 'Kept file' }),
      });
      expect(updated.status).toBe(200);
      expect(await updated.json()).toMatchObject({ title: 'Kept file', file_reference: { id: file } });
      // Creating still needs one.
      const missing = await server.fetch('/assets/external-id/new', { method: 'PUT', body: '{"title":"x"}' });
      expect(missing.status).toBe(400);
    } finally {
      await server.close();
    }
  });
});
