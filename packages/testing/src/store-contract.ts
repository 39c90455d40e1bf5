import { describe, expect, it, beforeEach, afterEach } from 'vitest';
import { LecternError } from '@lectern/errors';
import type {
  ApiKeyRecord,
  AssetRecord,
  BinaryFileRecord,
  ContentItemRecord,
  Project,
  Store,
  VariantRecord,
} from '@lectern/core';
import { describeStorePagingContract } from './store-paging-contract.ts';
import { describeStoreTaskContract } from './store-task-contract.ts';
import { describeStoreBlobLedgerContract } from './store-blob-ledger-contract.ts';
import { describeStorePeopleContract } from './store-people-contract.ts';
import { describeStorePresenceContract } from './store-presence-contract.ts';

/**
 * The contract every Store adapter honours, run against a real engine. `open` returns a fresh,
 * empty, migrated store.
 */
export function describeStoreContract(options: { engine: string; open: () => Promise<Store> }): void {
  describe(`store contract on ${options.engine}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await options.open();
    });
    afterEach(async () => {
      await store.close();
    });

    const project = (id: string, name = 'P'): Project => ({
      id,
      name,
      environment: 'Production',
      isSecureAccess: false,
      isProduction: true,
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const key = (over: Partial<ApiKeyRecord> & Pick<ApiKeyRecord, 'id' | 'projectId'>): ApiKeyRecord => ({
      kind: 'delivery_primary',
      ownerUserId: null,
      secretHash: 'ab'.repeat(32),
      createdAt: new Date('2026-01-01T00:00:00Z'),
      expiresAt: null,
      revokedAt: null,
      ...over,
    });
    const p1 = '11111111-1111-4111-8111-111111111111';
    const p2 = '22222222-2222-4222-8222-222222222222';

    it('stores, lists and updates projects', async () => {
      await store.transaction(async (tx) => {
        await tx.projects.insert(project(p1, 'One'));
        await tx.projects.insert(project(p2, 'Two'));
      });
      const listed = await store.transaction((tx) => tx.projects.list());
      expect(listed.map((p) => p.name).sort()).toEqual(['One', 'Two']);
      const updated = await store.transaction((tx) => tx.projects.update(p1, { isSecureAccess: true }));
      expect(updated).toMatchObject({ id: p1, name: 'One', isSecureAccess: true });
      expect(
        await store.transaction((tx) => tx.projects.update('33333333-3333-4333-8333-333333333333', { name: 'x' })),
      ).toBeNull();
    });

    it('rolls a failed transaction back completely', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.projects.insert(project(p1));
          await tx.outbox.append(
            p1,
            [{ objectKind: 'project', operation: 'create', objectId: p1, channel: 'management', payload: {} }],
            new Date(),
          );
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.transaction((tx) => tx.projects.get(p1))).toBeNull();
      expect(await store.transaction((tx) => tx.outbox.latestSeq(p1))).toBe(0);
    });

    it('keeps one active key per slot and frees the slot on revoke', async () => {
      await store.transaction((tx) => tx.projects.insert(project(p1)));
      const first = key({ id: 'a0000000-0000-4000-8000-000000000001', projectId: p1 });
      await store.transaction((tx) => tx.apiKeys.insert(first));
      const second = key({ id: 'a0000000-0000-4000-8000-000000000002', projectId: p1 });
      const clash = await store.transaction((tx) => tx.apiKeys.insert(second)).catch((e: unknown) => e);
      expect(clash).toBeInstanceOf(LecternError);
      expect((clash as LecternError).code).toBe('API_KEY_SLOT_TAKEN');
      expect(await store.transaction((tx) => tx.apiKeys.revoke(first.id, new Date()))).toBe(true);
      expect(await store.transaction((tx) => tx.apiKeys.revoke(first.id, new Date()))).toBe(false);
      await store.transaction((tx) => tx.apiKeys.insert(second));
      const active = await store.transaction((tx) =>
        tx.apiKeys.findActive({ projectId: p1, kind: 'delivery_primary', ownerUserId: null }),
      );
      expect(active?.id).toBe(second.id);
      expect((await store.transaction((tx) => tx.apiKeys.listByProject(p1))).length).toBe(2);
    });

    it('stores one user per e-mail when writers insert it at the same time', async () => {
      const inserted = await Promise.all(
        ['c0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002'].map((id) =>
          store.transaction((tx) => tx.users.insert({ id, email: 'same@x.io', name: 'same', createdAt: new Date() })),
        ),
      );
      expect(inserted[0]!.id).toBe(inserted[1]!.id);
      expect((await store.transaction((tx) => tx.users.findByEmail('same@x.io')))?.id).toBe(inserted[0]!.id);
    });

    it('gives each user their own management key slot', async () => {
      await store.transaction(async (tx) => {
        await tx.projects.insert(project(p1));
        await tx.users.insert({
          id: 'b0000000-0000-4000-8000-000000000001',
          email: 'a@x.io',
          name: 'a',
          createdAt: new Date(),
        });
        await tx.users.insert({
          id: 'b0000000-0000-4000-8000-000000000002',
          email: 'b@x.io',
          name: 'b',
          createdAt: new Date(),
        });
      });
      for (const [i, owner] of [
        'b0000000-0000-4000-8000-000000000001',
        'b0000000-0000-4000-8000-000000000002',
      ].entries()) {
        await store.transaction((tx) =>
          tx.apiKeys.insert(
            key({
              id: `c0000000-0000-4000-8000-00000000000${i}`,
              projectId: p1,
              kind: 'management',
              ownerUserId: owner,
            }),
          ),
        );
      }
      expect(await store.transaction((tx) => tx.users.findByEmail('b@x.io'))).toMatchObject({ name: 'b' });
    });

    it('numbers outbox events gap-free per project, in commit order, under concurrent writers', async () => {
      await store.transaction(async (tx) => {
        await tx.projects.insert(project(p1));
        await tx.projects.insert(project(p2));
      });
      const writers = Array.from({ length: 24 }, (_, i) =>
        store
          .transaction(async (tx) => {
            const pid = i % 2 === 0 ? p1 : p2;
            const events = [0, 1].map((j) => ({
              objectKind: 'test',
              operation: 'write',
              objectId: `${i}-${j}`,
              channel: 'management' as const,
              payload: { i, j },
            }));
            if (i % 5 === 4) {
              await tx.outbox.append(pid, events, new Date());
              throw new Error('rolled back');
            }
            return tx.outbox.append(pid, events, new Date());
          })
          .catch(() => null),
      );
      await Promise.all(writers);
      for (const pid of [p1, p2]) {
        const events = await store.transaction((tx) =>
          tx.outbox.readAfter({ projectId: pid, afterSeq: 0, limit: 1000 }),
        );
        expect(events.map((e) => e.seq)).toEqual(events.map((_, k) => k + 1));
        // Each committed writer's two events are adjacent: sequence order is commit order.
        for (let k = 0; k < events.length; k += 2) {
          expect(events[k]?.payload['i']).toBe(events[k + 1]?.payload['i']);
        }
        expect(await store.transaction((tx) => tx.outbox.latestSeq(pid))).toBe(events.length);
      }
      const page = await store.transaction((tx) => tx.outbox.readAfter({ projectId: p1, afterSeq: 2, limit: 3 }));
      expect(page.map((e) => e.seq)).toEqual([3, 4, 5]);
      expect(page[0]).toMatchObject({ projectId: p1, objectKind: 'test', operation: 'write', channel: 'management' });
    });

    it('stores model documents, finds them by id, codename or external id, and keeps codenames unique per kind', async () => {
      await store.transaction((tx) => tx.projects.insert(project(p1)));
      const base = {
        projectId: p1,
        kind: 'taxonomy' as const,
        externalId: null,
        lastModified: new Date('2026-01-02T00:00:00Z'),
      };
      const first = {
        ...base,
        id: 'd0000000-0000-4000-8000-000000000001',
        codename: 'colours',
        externalId: 'ext-1',
        body: { name: 'Colours', terms: [] },
      };
      const second = {
        ...base,
        id: 'd0000000-0000-4000-8000-000000000002',
        codename: 'sizes',
        body: { name: 'Sizes', terms: [] },
      };
      await store.transaction(async (tx) => {
        await tx.model.insert(first);
        await tx.model.insert(second);
        // The same codename under another kind is fine.
        await tx.model.insert({ ...second, kind: 'collection', body: { name: 'Sizes' } });
      });
      const byKey = await store.transaction(async (tx) => [
        await tx.model.find(p1, 'taxonomy', { id: first.id }),
        await tx.model.find(p1, 'taxonomy', { codename: 'colours' }),
        await tx.model.find(p1, 'taxonomy', { externalId: 'ext-1' }, { isForUpdate: true }),
        await tx.model.find(p1, 'taxonomy', { codename: 'missing' }),
      ]);
      expect(byKey.map((r) => r?.id ?? null)).toEqual([first.id, first.id, first.id, null]);
      expect(byKey[0]).toMatchObject({
        codename: 'colours',
        externalId: 'ext-1',
        body: { name: 'Colours', terms: [] },
      });
      const clash = await store
        .transaction((tx) => tx.model.insert({ ...second, id: 'd0000000-0000-4000-8000-000000000003' }))
        .catch((e: unknown) => e);
      expect((clash as LecternError).kind).toBe('conflict');
      await store.transaction((tx) =>
        tx.model.update({ ...first, codename: 'colors', body: { name: 'Colors', terms: [] } }),
      );
      const listed = await store.transaction((tx) => tx.model.list(p1, 'taxonomy'));
      expect(listed.map((r) => r.codename)).toEqual(['colors', 'sizes']);
      expect(await store.transaction((tx) => tx.model.delete(p1, 'taxonomy', second.id))).toBe(true);
      expect(await store.transaction((tx) => tx.model.delete(p1, 'taxonomy', second.id))).toBe(false);
    });

    it('serializes read-modify-write of one model document: no lost update', async () => {
      await store.transaction((tx) => tx.projects.insert(project(p1)));
      const doc = {
        projectId: p1,
        kind: 'taxonomy' as const,
        id: 'd0000000-0000-4000-8000-000000000009',
        codename: 't',
        externalId: null,
        lastModified: new Date(),
        body: { n: 0 },
      };
      await store.transaction((tx) => tx.model.insert(doc));
      await Promise.all(
        Array.from({ length: 10 }, () =>
          store.transaction(async (tx) => {
            const current = await tx.model.find<{ n: number }>(p1, 'taxonomy', { id: doc.id }, { isForUpdate: true });
            await tx.model.update({ ...doc, body: { n: (current?.body.n ?? 0) + 1 } });
          }),
        ),
      );
      expect(
        (await store.transaction((tx) => tx.model.find<{ n: number }>(p1, 'taxonomy', { id: doc.id })))?.body.n,
      ).toBe(10);
    });

    it('counts rate-limit hits atomically per key and window', async () => {
      const now = new Date('2026-01-01T00:00:10.200Z');
      const keyId = 'e0000000-0000-4000-8000-000000000001';
      const counts = await Promise.all(
        Array.from({ length: 12 }, () => store.transaction((tx) => tx.rateLimits.hit(keyId, [1000, 60000], now))),
      );
      expect(counts.map((c) => c[0]).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      const nextSecond = await store.transaction((tx) =>
        tx.rateLimits.hit(keyId, [1000, 60000], new Date(now.getTime() + 1000)),
      );
      expect(nextSecond).toEqual([1, 13]);
      await store.transaction((tx) => tx.rateLimits.purge(new Date(now.getTime() + 3_600_000)));
      expect(await store.transaction((tx) => tx.rateLimits.hit(keyId, [60000], now))).toEqual([1]);
      // Units by amount (GraphQL resource consumption); 0 reads without adding.
      expect(await store.transaction((tx) => tx.rateLimits.hit(keyId, [60000], now, 25))).toEqual([26]);
      expect(await store.transaction((tx) => tx.rateLimits.hit(keyId, [60000], now, 0))).toEqual([26]);
    });

    it('stores binary files, assets (one per file, unique codename and external id) and folder trees', async () => {
      await store.transaction((tx) => tx.projects.insert(project(p1)));
      const file = (id: string): BinaryFileRecord => ({
        projectId: p1,
        id,
        fileName: 'photo.png',
        contentType: 'image/png',
        size: 68,
        imageWidth: 3,
        imageHeight: 2,
        blobKey: `${p1}/${id}`,
        createdAt: new Date('2026-01-01T00:00:00Z'),
      });
      const f1 = 'f1000000-0000-4000-8000-000000000001';
      const f2 = 'f2000000-0000-4000-8000-000000000002';
      const asset: AssetRecord = {
        projectId: p1,
        id: 'a1000000-0000-4000-8000-000000000001',
        codename: 'photo',
        externalId: 'ext-photo',
        fileId: f1,
        title: 'Photo',
        folderId: 'd1000000-0000-4000-8000-000000000001',
        collectionId: null,
        descriptions: { '00000000-0000-0000-0000-000000000000': 'A photo' },
        elements: [],
        lastModified: new Date('2026-01-02T00:00:00Z'),
      };
      await store.transaction(async (tx) => {
        await tx.binaryFiles.insert(file(f1));
        await tx.binaryFiles.insert(file(f2));
        await tx.assets.insert(asset);
      });
      expect(await store.transaction((tx) => tx.binaryFiles.get(p1, f1))).toEqual(file(f1));
      expect((await store.transaction((tx) => tx.binaryFiles.getMany(p1, [f1, f2]))).length).toBe(2);
      for (const key of [{ id: asset.id }, { codename: 'photo' }, { externalId: 'ext-photo' }]) {
        expect(await store.transaction((tx) => tx.assets.find(p1, key))).toEqual(asset);
      }
      expect((await store.transaction((tx) => tx.assets.findByFile(p1, f1)))?.id).toBe(asset.id);
      expect(await store.transaction((tx) => tx.assets.isCodenameTaken(p1, 'photo'))).toBe(true);
      expect(await store.transaction((tx) => tx.assets.isCodenameTaken(p1, 'photo', asset.id))).toBe(false);

      const second = { ...asset, id: 'a2000000-0000-4000-8000-000000000002', codename: 'other', externalId: null };
      // One asset per file; codenames and external ids unique.
      for (const clash of [
        second,
        { ...second, fileId: f2, codename: 'photo' },
        { ...second, fileId: f2, externalId: 'ext-photo' },
      ]) {
        await expect(store.transaction((tx) => tx.assets.insert(clash))).rejects.toMatchObject({ kind: 'conflict' });
      }
      await store.transaction((tx) => tx.assets.insert({ ...second, fileId: f2 }));
      const first = await store.transaction((tx) => tx.assets.page(p1, { after: null, limit: 1 }));
      expect(first.rows.map((a) => a.id)).toEqual([asset.id]);
      const page = await store.transaction((tx) => tx.assets.page(p1, { after: first.next, limit: 5 }));
      expect(page).toMatchObject({ rows: [{ id: second.id }], next: null });

      const moved = await store.transaction((tx) =>
        tx.assets.moveToRoot(p1, [asset.folderId as string], new Date('2026-01-03T00:00:00Z')),
      );
      expect(moved.map((a) => a.id).sort()).toEqual([asset.id, second.id].sort());
      expect((await store.transaction((tx) => tx.assets.find(p1, { id: asset.id })))?.folderId).toBeNull();
      await store.transaction((tx) => tx.assets.update({ ...asset, title: null, folderId: null }));
      expect((await store.transaction((tx) => tx.assets.find(p1, { id: asset.id })))?.title).toBeNull();
      expect(await store.transaction((tx) => tx.assets.delete(p1, asset.id))).toBe(true);
      expect(await store.transaction((tx) => tx.assets.delete(p1, asset.id))).toBe(false);

      expect(await store.transaction((tx) => tx.assetFolders.get(p1))).toBeNull();
      const tree = {
        folders: [
          {
            id: asset.folderId as string,
            name: 'Top',
            codename: 'top',
            externalId: 'top',
            folders: [{ id: f2, name: 'Inner', codename: 'inner', externalId: null, folders: [] }],
          },
        ],
        lastModified: new Date('2026-01-04T00:00:00Z'),
      };
      await store.transaction((tx) => tx.assetFolders.save(p1, tree));
      await store.transaction((tx) => tx.assetFolders.save(p1, { ...tree, folders: [...tree.folders] }));
      expect(await store.transaction((tx) => tx.assetFolders.get(p1, { isForUpdate: true }))).toEqual(tree);
    });

    it('stores content items, finds them by each identifier and deletes their variants with them', async () => {
      const typeId = '33333333-3333-4333-8333-333333333333';
      const item = (id: string, codename: string, externalId: string | null): ContentItemRecord => ({
        projectId: p1,
        id,
        name: codename,
        codename,
        externalId,
        typeId,
        collectionId: '00000000-0000-0000-0000-000000000000',
        sitemapLocations: [],
        lastModified: new Date('2026-01-02T00:00:00Z'),
      });
      const i1 = item('44444444-4444-4444-8444-444444444441', 'on_roasts', 'ext-1');
      const i2 = item('44444444-4444-4444-8444-444444444442', 'on_roasts__2', null);
      await store.transaction(async (tx) => {
        await tx.projects.insert(project(p1));
        await tx.items.insert(i1);
        await tx.items.insert(i2);
      });
      await store.transaction(async (tx) => {
        expect(await tx.items.find(p1, { codename: 'on_roasts' })).toEqual(i1);
        expect(await tx.items.find(p1, { externalId: 'ext-1' }, { isForUpdate: true })).toEqual(i1);
        expect((await tx.items.list(p1)).map((i) => i.id)).toEqual([i1.id, i2.id]);
        expect((await tx.items.findMany(p1, [i2.id, typeId])).map((i) => i.id)).toEqual([i2.id]);
        const ofType = await tx.items.ofType(p1, typeId, 1);
        expect([ofType.count, ofType.sample.map((i) => i.id)]).toEqual([2, [i1.id]]);
        expect((await tx.items.ofType(p1, p1, 5)).count).toBe(0);
        expect(await tx.items.collectionIds(p1)).toEqual(['00000000-0000-0000-0000-000000000000']);
        expect((await tx.items.codenamesStartingWith(p1, 'on_roasts')).sort()).toEqual(['on_roasts', 'on_roasts__2']);
      });
      await expect(store.transaction((tx) => tx.items.insert({ ...i2, id: typeId }))).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      const variant: VariantRecord = {
        projectId: p1,
        itemId: i1.id,
        languageId: '00000000-0000-0000-0000-000000000000',
        typeId,
        workflowId: '00000000-0000-0000-0000-000000000000',
        stepId: 'eee6db3b-545a-4785-8e86-e3772c8756f9',
        lastModified: new Date('2026-01-03T00:00:00Z'),
        elements: { [typeId]: { value: 'text' } },
        schedule: {
          publish_time: null,
          publish_display_timezone: null,
          unpublish_time: null,
          unpublish_display_timezone: null,
        },
        dueDate: null,
        contributors: [],
        note: null,
        published: null,
      };
      await store.transaction((tx) => tx.variants.save(variant));
      const published = {
        ...variant,
        published: {
          elements: variant.elements,
          lastModified: '2026-01-03T00:00:00.000Z',
          workflowId: variant.workflowId,
        },
      };
      await store.transaction((tx) => tx.variants.save(published));
      await store.transaction(async (tx) => {
        expect(await tx.variants.find(p1, i1.id, variant.languageId, { isForUpdate: true })).toEqual(published);
        const all = { after: null, limit: 10 };
        expect(await tx.variants.pageByType(p1, typeId, all)).toEqual({ rows: [published], next: null });
        expect(await tx.variants.pageByCollections(p1, [i1.collectionId], all)).toEqual({
          rows: [published],
          next: null,
        });
        expect(await tx.variants.listByItem(p1, i2.id)).toEqual([]);
        await tx.items.update({ ...i1, name: 'Renamed', lastModified: new Date('2026-01-05T00:00:00Z') });
        expect((await tx.items.find(p1, { id: i1.id }))?.name).toBe('Renamed');
      });
      expect(await store.transaction((tx) => tx.items.delete(p1, i1.id))).toBe(true);
      expect(await store.transaction((tx) => tx.variants.find(p1, i1.id, variant.languageId))).toBeNull();
    });

    it('claims due scheduled jobs earliest first, each once, and cancels them', async () => {
      const job = (n: number, action: 'publish' | 'unpublish', dueAt: string) => ({
        id: `55555555-5555-4555-8555-55555555555${n}`,
        projectId: p1,
        itemId: '44444444-4444-4444-8444-444444444441',
        languageId: '00000000-0000-0000-0000-000000000000',
        action,
        dueAt: new Date(dueAt),
      });
      await store.transaction(async (tx) => {
        await tx.projects.insert(project(p1));
        await tx.scheduledJobs.insert(job(1, 'publish', '2026-01-02T00:00:00Z'));
        await tx.scheduledJobs.insert(job(2, 'unpublish', '2026-01-01T00:00:00Z'));
        await tx.scheduledJobs.insert(job(3, 'unpublish', '2026-02-01T00:00:00Z'));
      });
      const now = new Date('2026-01-10T00:00:00Z');
      const claimAndDelete = () =>
        store.transaction(async (tx) => {
          const claimed = await tx.scheduledJobs.claimDue(now);
          if (claimed) await tx.scheduledJobs.delete(claimed.id);
          return claimed;
        });
      expect(await claimAndDelete()).toEqual(job(2, 'unpublish', '2026-01-01T00:00:00Z'));
      expect(await claimAndDelete()).toEqual(job(1, 'publish', '2026-01-02T00:00:00Z'));
      expect(await claimAndDelete()).toBeNull();
      await store.transaction((tx) =>
        tx.scheduledJobs.cancel({
          projectId: p1,
          itemId: job(3, 'unpublish', '').itemId,
          languageId: job(3, 'unpublish', '').languageId,
          action: 'unpublish',
        }),
      );
      expect(await store.transaction((tx) => tx.scheduledJobs.claimDue(new Date('2027-01-01T00:00:00Z')))).toBeNull();
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    describeStorePagingContract(() => store);
    describeStoreTaskContract(() => store);
    describeStoreBlobLedgerContract(() => store);
    describeStorePeopleContract(() => store);
    describeStorePresenceContract(() => store);
  });
}
