import { describe, expect, it } from 'vitest';
import type {
  AssetRecord,
  ContentItemRecord,
  KeyedPage,
  PageKey,
  PageRequest,
  Store,
  VariantRecord,
} from '@lectern/core';

const p1 = '11111111-1111-4111-8111-111111111111';
const p2 = '22222222-2222-4222-8222-222222222222';
const typeA = '3a000000-0000-4000-8000-000000000001';
const typeB = '3b000000-0000-4000-8000-000000000002';
const c1 = 'c1000000-0000-4000-8000-000000000001';
const c2 = 'c2000000-0000-4000-8000-000000000002';
const c3 = 'c3000000-0000-4000-8000-000000000003';
const zero = '00000000-0000-0000-0000-000000000000';
const other = '0e000000-0000-4000-8000-000000000001';

/** `prefix` (the first four groups of a UUID and the dash) and `n` as the last group. */
const uuid = (prefix: string, n: number) => `${prefix}${String(n).padStart(12, '0')}`;
const itemId = (n: number) => uuid('44444444-4444-4444-8444-', n);

function item(projectId: string, n: number, over: Partial<ContentItemRecord> = {}): ContentItemRecord {
  return {
    projectId,
    id: itemId(n),
    name: `Item ${n}`,
    codename: `item_${n}`,
    externalId: null,
    typeId: typeA,
    collectionId: c1,
    sitemapLocations: [],
    lastModified: new Date('2026-01-02T00:00:00Z'),
    ...over,
  };
}

function variant(of: ContentItemRecord, languageId = zero): VariantRecord {
  return {
    projectId: of.projectId,
    itemId: of.id,
    languageId,
    typeId: of.typeId,
    workflowId: zero,
    stepId: 'eee6db3b-545a-4785-8e86-e3772c8756f9',
    lastModified: new Date('2026-01-03T00:00:00Z'),
    elements: {},
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
}

/** Every page of a list, from the first on, with `limit` rows each. */
async function allPages<T>(read: (request: PageRequest) => Promise<KeyedPage<T>>, limit: number): Promise<T[][]> {
  const pages: T[][] = [];
  let after: PageKey | null = null;
  do {
    const page: KeyedPage<T> = await read({ after, limit });
    pages.push(page.rows);
    after = page.next;
  } while (after !== null);
  return pages;
}

/**
 * The keyset paging part of the Store contract (KeyedPage): pages in creation order, the last page
 * says so, and rows created or deleted between pages never make the others repeat or go missing.
 */
export function describeStorePagingContract(storeOf: () => Store): void {
  describe('keyset pages', () => {
    const seed = async (projectId: string, items: ContentItemRecord[]) => {
      const store = storeOf();
      await store.transaction(async (tx) => {
        if (!(await tx.projects.get(projectId)))
          await tx.projects.insert({
            id: projectId,
            name: 'P',
            environment: 'Production',
            isSecureAccess: false,
            isProduction: true,
            createdAt: new Date('2026-01-01T00:00:00Z'),
          });
        for (const i of items) await tx.items.insert(i);
      });
    };

    it('pages items in creation order, one project only, with null next after the last row', async () => {
      const store = storeOf();
      await seed(
        p1,
        [7, 3, 9, 1, 5, 2].map((n) => item(p1, n)),
      );
      await seed(
        p2,
        [8].map((n) => item(p2, n)),
      );
      const pages = await allPages((r) => store.transaction((tx) => tx.items.page(p1, r)), 2);
      expect(pages.map((p) => p.map((i) => i.codename))).toEqual([
        ['item_7', 'item_3'],
        ['item_9', 'item_1'],
        ['item_5', 'item_2'],
      ]);
      const whole = await store.transaction((tx) => tx.items.page(p1, { after: null, limit: 6 }));
      expect(whole.next).toBeNull();
      expect(whole.rows[0]).toEqual(item(p1, 7));
      // An update keeps an item's place.
      await store.transaction((tx) => tx.items.update({ ...item(p1, 7), name: 'Renamed' }));
      const first = await store.transaction((tx) => tx.items.page(p1, { after: null, limit: 1 }));
      expect(first.rows.map((i) => i.name)).toEqual(['Renamed']);
      expect(await store.transaction((tx) => tx.items.page(p2, { after: null, limit: 5 }))).toEqual({
        rows: [item(p2, 8)],
        next: null,
      });
    });

    it('neither repeats nor skips items when others are created and deleted between pages', async () => {
      const store = storeOf();
      await seed(
        p1,
        [1, 2, 3, 4, 5, 6].map((n) => item(p1, n)),
      );
      const first = await store.transaction((tx) => tx.items.page(p1, { after: null, limit: 2 }));
      // Delete the last row returned and one not reached yet; create one.
      await store.transaction(async (tx) => {
        await tx.items.delete(p1, itemId(2));
        await tx.items.delete(p1, itemId(4));
        await tx.items.insert(item(p1, 7));
      });
      const rest = await allPages(
        (r) => store.transaction((tx) => tx.items.page(p1, r.after === null ? { ...r, after: first.next } : r)),
        2,
      );
      expect([first.rows, ...rest].flat().map((i) => i.codename)).toEqual([
        'item_1',
        'item_2',
        'item_3',
        'item_5',
        'item_6',
        'item_7',
      ]);
    });

    it('pages assets in creation order', async () => {
      const store = storeOf();
      await seed(p1, []);
      const assets: AssetRecord[] = [5, 1, 4, 2, 3].map((n) => ({
        projectId: p1,
        id: uuid('a0000000-0000-4000-8000-', n),
        codename: `asset_${n}`,
        externalId: null,
        fileId: uuid('f0000000-0000-4000-8000-', n),
        title: null,
        folderId: null,
        collectionId: null,
        descriptions: {},
        elements: [],
        lastModified: new Date('2026-01-02T00:00:00Z'),
      }));
      await store.transaction(async (tx) => {
        for (const a of assets) {
          await tx.binaryFiles.insert({
            projectId: p1,
            id: a.fileId,
            fileName: 'a.txt',
            contentType: 'text/plain',
            size: 1,
            imageWidth: null,
            imageHeight: null,
            blobKey: a.fileId,
            createdAt: new Date('2026-01-01T00:00:00Z'),
          });
          await tx.assets.insert(a);
        }
      });
      const pages = await allPages((r) => store.transaction((tx) => tx.assets.page(p1, r)), 2);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual(assets);
    });

    it('pages the variants of a type in the order the variants were created', async () => {
      const store = storeOf();
      const items = [1, 2, 3, 4, 5].map((n) => item(p1, n, { typeId: n % 2 === 0 ? typeB : typeA }));
      await seed(p1, items);
      const at = (n: number) => items[n - 1] as ContentItemRecord;
      const order = [
        variant(at(5)),
        variant(at(2)),
        variant(at(1), other),
        variant(at(3)),
        variant(at(1)),
        variant(at(4)),
      ];
      await store.transaction(async (tx) => {
        for (const v of order) await tx.variants.save(v);
      });
      // Saving again keeps a variant's place.
      await store.transaction((tx) => tx.variants.save({ ...order[0], note: 'edited' } as VariantRecord));
      const pages = await allPages((r) => store.transaction((tx) => tx.variants.pageByType(p1, typeA, r)), 2);
      expect(pages.map((p) => p.map((v) => [v.itemId, v.languageId]))).toEqual([
        [
          [itemId(5), zero],
          [itemId(1), other],
        ],
        [
          [itemId(3), zero],
          [itemId(1), zero],
        ],
      ]);
      expect(pages[0]?.[0]?.note).toBe('edited');
      const found = await store.transaction((tx) =>
        tx.variants.findManyInLanguage(p1, zero, [itemId(1), itemId(2), itemId(9)]),
      );
      expect(found.map((v) => v.itemId).sort()).toEqual([itemId(1), itemId(2)]);
    });

    it('pages the variants of collections collection by collection, across page boundaries', async () => {
      const store = storeOf();
      const collectionOf = (n: number) => (n <= 3 ? c1 : n <= 5 ? c2 : c3);
      const items = [1, 2, 3, 4, 5, 6].map((n) => item(p1, n, { collectionId: collectionOf(n) }));
      await seed(p1, items);
      await store.transaction(async (tx) => {
        for (const n of [6, 4, 1, 5, 3, 2]) await tx.variants.save(variant(items[n - 1] as ContentItemRecord));
      });
      const read = (ids: string[], limit: number) =>
        allPages((r) => store.transaction((tx) => tx.variants.pageByCollections(p1, ids, r)), limit);
      const codes = (pages: VariantRecord[][]) => pages.map((p) => p.map((v) => Number(v.itemId.slice(-1))));
      // c2 (4, 5 in variant order), then an empty collection, then c1 (1, 3, 2).
      const emptyCollection = 'c9000000-0000-4000-8000-000000000009';
      expect(codes(await read([c2, emptyCollection, c1], 2))).toEqual([[4, 5], [1, 3], [2]]);
      expect(codes(await read([c1, c2], 4))).toEqual([[1, 3, 2, 4], [5]]);
      expect(codes(await read([c3], 1))).toEqual([[6]]);
      expect(await store.transaction((tx) => tx.variants.pageByCollections(p1, [], { after: null, limit: 5 }))).toEqual(
        {
          rows: [],
          next: null,
        },
      );
    });

    it('finds model objects by ids', async () => {
      const store = storeOf();
      await seed(p1, []);
      const doc = (id: string, codename: string) => ({
        projectId: p1,
        kind: 'content_type' as const,
        id,
        codename,
        externalId: null,
        lastModified: new Date('2026-01-02T00:00:00Z'),
        body: { name: codename },
      });
      await store.transaction(async (tx) => {
        await tx.model.insert(doc(typeA, 'a'));
        await tx.model.insert(doc(typeB, 'b'));
        await tx.model.insert({ ...doc(c1, 'c'), kind: 'snippet' });
      });
      const found = await store.transaction((tx) => tx.model.findMany(p1, 'content_type', [typeB, c1, typeA]));
      expect(found.map((r) => r.codename).sort()).toEqual(['a', 'b']);
      expect(await store.transaction((tx) => tx.model.findMany(p1, 'content_type', []))).toEqual([]);
    });
  });
}
