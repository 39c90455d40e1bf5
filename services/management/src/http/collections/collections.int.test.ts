import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const fixtures = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/collections';
const zero = '00000000-0000-0000-0000-000000000000';
let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

interface CollectionsJson {
  collections: { id: string; name: string; codename: string; external_id?: string }[];
  last_modified: string | null;
}

const listRaw = async () => (await server.fetch('/collections').then((r) => r.json())) as CollectionsJson;

describe('collections through @kontent-ai/management-sdk', () => {
  it('lists the default collection', async () => {
    const list = await server.client.listCollections().toPromise();
    expect(list.rawData.collections).toEqual([{ id: zero, name: 'Default', codename: 'default' }]);
    expect(typeof list.rawData.last_modified).toBe('string');
    expect(shapeDifferences(list.rawData, readFixture(`${fixtures}/fake-list-collections.json`))).toEqual([]);
  });

  it('adds, moves, renames and removes collections, answering the whole list', async () => {
    const set = await server.client
      .setCollections()
      .withData([
        { op: 'addInto', value: { name: 'Marketing' } },
        { op: 'addInto', value: { name: 'Development', codename: 'development', externalId: 'dev' } },
        { op: 'addInto', value: { name: 'Extra' }, after: { codename: 'default' } },
        { op: 'move', reference: { codename: 'development' }, before: { codename: 'marketing' } },
        { op: 'replace', reference: { externalId: 'dev' }, property_name: 'name', value: 'Dev team' },
        { op: 'replace', reference: { codename: 'marketing' }, property_name: 'codename', value: 'mkt' },
        { op: 'remove', reference: { codename: 'extra' } },
      ])
      .toPromise();
    const raw = set.rawData as unknown as CollectionsJson;
    expect(raw.collections.map((c) => [c.codename, c.name])).toEqual([
      ['default', 'Default'],
      ['development', 'Dev team'],
      ['mkt', 'Marketing'],
    ]);
    expect(raw.collections[1]?.external_id).toBe('dev');
    expect(shapeDifferences(raw, readFixture(`${fixtures}/fake-set-collections.json`))).toEqual([]);
    expect(await listRaw()).toEqual(raw);
    const sdkList = await server.client.listCollections().toPromise();
    expect(sdkList.data.collections.map((c) => c.codename)).toEqual(['default', 'development', 'mkt']);
  });

  it('lets a new collection take a codename freed by a rename in the same PATCH', async () => {
    const set = await server.client
      .setCollections()
      .withData([
        { op: 'replace', reference: { codename: 'mkt' }, property_name: 'codename', value: 'marketing' },
        { op: 'addInto', value: { name: 'Mkt', codename: 'mkt' }, before: { codename: 'development' } },
      ])
      .toPromise();
    expect(set.data.collections.map((c) => c.codename)).toEqual(['default', 'mkt', 'development', 'marketing']);
    await server.client
      .setCollections()
      .withData([{ op: 'remove', reference: { codename: 'mkt' } }])
      .toPromise();
  });

  it('advances last_modified when a collection is only removed', async () => {
    await server.client
      .setCollections()
      .withData([{ op: 'addInto', value: { name: 'Temp' } }])
      .toPromise();
    const before = (await listRaw()).last_modified as string;
    server.core.clock.advance(60_000);
    await server.client
      .setCollections()
      .withData([{ op: 'remove', reference: { codename: 'temp' } }])
      .toPromise();
    const after = await listRaw();
    expect(after.collections.map((c) => c.codename)).not.toContain('temp');
    expect(Date.parse(after.last_modified as string)).toBeGreaterThan(Date.parse(before));
  });

  it('refuses bad operations with every problem listed, and changes nothing', async () => {
    const before = await listRaw();
    const patch = async (operations: unknown) => {
      const r = await server.fetch('/collections', { method: 'PATCH', body: JSON.stringify(operations) });
      expect(r.status).toBe(400);
      const body = (await r.json()) as { error_code: number; validation_errors: { path?: string; message: string }[] };
      expect(body.error_code).toBe(5);
      return body.validation_errors;
    };
    const errors = await patch([
      { op: 'addInto', value: { name: 'Fine' } },
      { op: 'addInto', value: { name: '', codename: 'Bad One' } },
      { op: 'addInto', value: { name: 'Dup', codename: 'development' } },
      { op: 'remove', reference: { codename: 'default' } },
      { op: 'move', reference: { codename: 'nope' }, after: { codename: 'default' } },
      { op: 'replace', reference: { id: zero, codename: 'default' }, property_name: 'name', value: 'X' },
      { op: 'replace', reference: { id: zero }, property_name: 'color', value: 'red' },
      { op: 'launch' },
    ]);
    expect(errors.map((e) => e.path)).toEqual([
      '[1].value.name',
      '[1].value.codename',
      '[2]',
      '[3].reference',
      '[4].reference',
      '[5].reference',
      '[6].property_name',
      '[7].op',
    ]);
    expect(errors[4]?.message).toBe("Invalid operation with index '4': The referenced object was not found.");
    await patch([]);
    await patch({ op: 'addInto' });
    expect(await listRaw()).toEqual(before);
  });

  it('answers 405 for unsupported methods', async () => {
    expect((await server.fetch('/collections', { method: 'POST', body: '{}' })).status).toBe(405);
  });
});
