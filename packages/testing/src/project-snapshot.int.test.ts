import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFsBlobStore } from '@lectern/blob-fs';
import type { BlobStore } from '@lectern/core';
import { snapshotChanges, storeSnapshot, storeTables } from './project-snapshot.ts';
import { openTestCore, seedProject, type TestCore } from './test-core.ts';

/*
 * The fuzz judge's claim (issue 27): a snapshot covers every table the catalogue lists, tables
 * added later included, and every blob, so no stored change can go unseen.
 */
let core: TestCore;
let blobs: BlobStore;
let root: string;
const snapshot = () => storeSnapshot({ db: core.store.db, blobs });

beforeAll(async () => {
  core = await openTestCore();
  await seedProject(core, ['management']);
  root = await mkdtemp(join(tmpdir(), 'lectern-snapshot-'));
  blobs = openFsBlobStore({ root });
});
afterAll(async () => {
  await core?.store.close();
  await rm(root, { recursive: true, force: true });
});

describe('storeSnapshot', () => {
  it('covers every table of the schema, the ones the old list missed included', async () => {
    const names = Object.keys(await snapshot());
    expect(names).toEqual(
      expect.arrayContaining(['webhooks', 'background_tasks', 'recs_items', 'users', 'key_expiry_notices']),
    );
    const tables = await storeTables(core.store.db);
    expect(names.sort()).toEqual(tables.filter((t) => t !== 'rate_limit_hits').sort());
  });

  it('sees an insert, an update that keeps the contents, and a delete', async () => {
    const before = await snapshot();
    expect(snapshotChanges(before, await snapshot())).toEqual([]);
    await sql`update projects set name = name`.execute(core.store.db);
    const touched = await snapshot();
    expect(snapshotChanges(before, touched)).toEqual(['projects']);
    await sql`delete from api_keys`.execute(core.store.db);
    expect(snapshotChanges(touched, await snapshot())).toEqual(['api_keys']);
  });

  it('covers a table created after its first use', async () => {
    const before = await snapshot();
    await sql`create table zz_later (id int)`.execute(core.store.db);
    const created = await snapshot();
    expect(snapshotChanges(before, created)).toEqual(['zz_later']);
    await sql`insert into zz_later values (1)`.execute(core.store.db);
    expect(snapshotChanges(created, await snapshot())).toEqual(['zz_later']);
  });

  it('lists every blob with its size', async () => {
    const before = await snapshot();
    await blobs.put({ key: 'p/file-1', body: Readable.from([Buffer.from('bytes')]), contentType: 'text/plain' });
    const after = await snapshot();
    expect(snapshotChanges(before, after)).toEqual(['blob:p/file-1']);
    expect(after['blob:p/file-1']).toBe('5');
  });
});
