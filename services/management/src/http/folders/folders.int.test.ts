import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const fixtures = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/asset-folders';
let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

interface FolderJson {
  id: string;
  name: string;
  codename: string;
  external_id?: string;
  folders: FolderJson[];
}
interface TreeJson {
  folders: FolderJson[];
  last_modified: string;
}

const tree = async () => (await (await server.fetch('/folders')).json()) as TreeJson;
const names = (folders: FolderJson[]): unknown[] =>
  folders.map((f) => (f.folders.length === 0 ? f.name : { [f.name]: names(f.folders) }));

describe('asset folders through @kontent-ai/management-sdk', () => {
  it('adds the first tree, then adds into, renames and removes folders', async () => {
    const empty = await server.client.listAssetFolders().toPromise();
    expect(empty.rawData.folders).toEqual([]);
    expect(typeof empty.rawData.last_modified).toBe('string');

    const added = await server.client
      .addAssetFolders()
      .withData({
        folders: [
          {
            name: 'Top level folder',
            external_id: 'top-folder',
            folders: [{ name: 'Second level folder', codename: 'second_level_folder', external_id: 'second-folder' }],
          },
        ],
      })
      .toPromise();
    const addedRaw = added.rawData as unknown as TreeJson;
    expect(addedRaw.folders[0]).toMatchObject({
      name: 'Top level folder',
      codename: 'top_level_folder',
      external_id: 'top-folder',
      folders: [{ name: 'Second level folder', codename: 'second_level_folder', folders: [] }],
    });
    expect(
      shapeDifferences(addedRaw, readFixture(`${fixtures}/fake-add-asset-folders.json`), { isExact: true }),
    ).toEqual([]);

    const again = await server.fetch('/folders', {
      method: 'POST',
      body: JSON.stringify({ folders: [{ name: 'More' }] }),
    });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error_code: number }).error_code).toBe(237);

    const modified = await server.client
      .modifyAssetFolders()
      .withData([
        { op: 'rename', reference: { external_id: 'second-folder' }, value: 'A new name' },
        {
          op: 'addInto',
          reference: { codename: 'top_level_folder' },
          value: { name: 'Another second level folder', external_id: 'another-folder' },
        },
        { op: 'addInto', value: { name: 'First', codename: 'first' }, before: { external_id: 'top-folder' } },
        {
          op: 'addInto',
          reference: { external_id: 'top-folder' },
          value: { name: 'Middle', folders: [{ name: 'Deep' }] },
          after: { external_id: 'second-folder' },
        },
      ])
      .toPromise();
    const modifiedRaw = modified.rawData as unknown as TreeJson;
    expect(names(modifiedRaw.folders)).toEqual([
      'First',
      { 'Top level folder': ['A new name', { Middle: ['Deep'] }, 'Another second level folder'] },
    ]);
    // 'First' has no external id, so it has no external_id field: compare the folder that has one.
    const withExternalIds = { ...modifiedRaw, folders: modifiedRaw.folders.slice(1) };
    expect(shapeDifferences(withExternalIds, readFixture(`${fixtures}/fake-modify-asset-folders.json`))).toEqual([]);
    expect(modified.data.items[1]?.folders[2]?.externalId).toBe('another-folder');

    await server.client
      .modifyAssetFolders()
      .withData([{ op: 'remove', reference: { codename: 'middle' } }])
      .toPromise();
    const list = await server.client.listAssetFolders().toPromise();
    expect(names(list.rawData.folders as unknown as FolderJson[])).toEqual([
      'First',
      { 'Top level folder': ['A new name', 'Another second level folder'] },
    ]);
    const listed = list.rawData as unknown as TreeJson;
    expect(
      shapeDifferences(
        { ...listed, folders: listed.folders.slice(1) },
        readFixture(`${fixtures}/fake-list-asset-folders.json`),
      ),
    ).toEqual([]);
  });

  it('refuses bad operations as a whole, changing nothing', async () => {
    const before = await tree();
    const bad: unknown[] = [
      [{ op: 'move', reference: { codename: 'first' } }],
      [{ op: 'rename', reference: { codename: 'nope' }, value: 'X' }],
      [{ op: 'rename', reference: { codename: 'first', id: before.folders[0]?.id }, value: 'X' }],
      [{ op: 'rename', reference: { codename: 'first' }, value: '' }],
      [{ op: 'rename', reference: { codename: 'first' }, value: 'x'.repeat(251) }],
      [{ op: 'remove', reference: { external_id: 'missing' } }],
      [{ op: 'addInto', value: { name: 'Dup', codename: 'first' } }],
      [{ op: 'addInto', value: { name: 'Dup', external_id: 'top-folder' } }],
      [{ op: 'addInto', value: { name: 'Bad', codename: 'Bad Codename' } }],
      [{ op: 'addInto', value: { name: 42 } }],
      [{ op: 'addInto', value: { name: 'Orphan' }, reference: { codename: 'nope' } }],
      [{ op: 'addInto', value: { name: 'Cousin' }, before: { external_id: 'second-folder' } }],
      // The first operation is valid; the second is not: neither applies.
      [
        { op: 'rename', reference: { codename: 'first' }, value: 'Renamed' },
        { op: 'remove', reference: { codename: 'nope' } },
      ],
      [],
      { op: 'remove' },
    ];
    for (const body of bad) {
      const response = await server.fetch('/folders', { method: 'PATCH', body: JSON.stringify(body) });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await response.json()) as { error_code: number; validation_errors?: { message: string }[] };
      expect(error.error_code).toBe(5);
      expect(error.validation_errors?.length).toBeGreaterThan(0);
    }
    const badPost = await server.fetch('/folders', { method: 'POST', body: JSON.stringify({ folders: 'x' }) });
    expect(badPost.status).toBe(400);
    expect(await tree()).toEqual(before);
  });

  it('moves the assets of a removed folder to the root', async () => {
    const upload = await server.client
      .uploadBinaryFile()
      .withData({ binaryData: Buffer.from('x'), contentType: 'text/plain', filename: 'x.txt', contentLength: 1 })
      .toPromise();
    const asset = await server.client
      .addAsset()
      .withData(() => ({
        file_reference: { id: upload.data.id, type: 'internal' },
        descriptions: [],
        folder: { codename: 'first' },
      }))
      .toPromise();
    expect(asset.data.folder).toBeDefined();
    await server.client
      .modifyAssetFolders()
      .withData([{ op: 'remove', reference: { codename: 'first' } }])
      .toPromise();
    const after = await server.client.viewAsset().byAssetId(asset.data.id).toPromise();
    expect(after.rawData).not.toHaveProperty('folder');
  });
});
