import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexDocument } from '@lectern/core';
import type { OpenedIndex } from './delivery-index-contract.ts';
import { everyItem } from './item-queries.ts';

/** The project these tests write to (distinct from the main contract's). */
export const linksContractProjectId = '22222222-2222-4222-8222-222222222222';
const projectId = linksContractProjectId;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const asset = '99999999-0000-4000-8000-000000000001';

function doc(o: {
  n: number;
  codename: string;
  uses?: string[];
  dependsOn?: string[];
  assets?: string[];
}): IndexDocument {
  return {
    itemId: id(o.n),
    language: 'en',
    item: {
      system: {
        id: id(o.n),
        name: o.codename,
        codename: o.codename,
        language: 'en',
        type: 'article',
        collection: 'default',
        sitemap_locations: [],
        last_modified: '2024-01-01T00:00:00.0000000Z',
      },
      elements: { title: { type: 'text', name: 'Title', value: o.codename } },
    },
    linkedItemCodenames: o.uses ?? [],
    components: {},
    dependsOnItemIds: o.dependsOn ?? [],
    assetIds: o.assets ?? [],
    usesItemCodenames: o.uses ?? [],
  };
}

const model = { types: [], taxonomies: [], languages: [] };

/**
 * The writer's bookkeeping and the reader's used-in: which items depend on an item or asset,
 * which items are indexed, where an item or asset is used; and a reset followed by indexing from
 * scratch (a rebuild).
 */
export function describeDeliveryIndexLinksContract(options: { engine: string; open: () => Promise<OpenedIndex> }) {
  describe(`delivery index links and rebuild on ${options.engine}`, () => {
    let opened: OpenedIndex;
    let index: OpenedIndex['index'];
    const codenames = async () =>
      (await index.queryItems(everyItem(projectId))).items.map((i) => i.item.system.codename);

    beforeAll(async () => {
      opened = await options.open();
      index = opened.index;
      const documents = [
        doc({ n: 1, codename: 'home', uses: ['about'], dependsOn: [id(2)], assets: [asset] }),
        doc({ n: 2, codename: 'about' }),
        doc({ n: 3, codename: 'contact', uses: ['about'], dependsOn: [id(2)] }),
      ];
      await index.apply({
        projectId,
        toSeq: 3,
        timestamp: new Date('2024-05-01T00:00:00Z'),
        items: documents.map((d) => ({ itemId: d.itemId, channel: 'production' as const, documents: [d] })),
        model,
      });
    });
    afterAll(async () => {
      await opened.close();
    });

    it('knows the dependents of items and assets, and every indexed item', async () => {
      expect((await index.dependents({ projectId, itemIds: [id(2)], assetIds: [] })).sort()).toEqual([id(1), id(3)]);
      expect(await index.dependents({ projectId, itemIds: [], assetIds: [asset] })).toEqual([id(1)]);
      expect(await index.dependents({ projectId, itemIds: [id(1)], assetIds: [] })).toEqual([]);
      expect((await index.indexedItemIds(projectId)).sort()).toEqual([id(1), id(2), id(3)]);
    });

    it('finds where an item or an asset is used, in the channel asked', async () => {
      const used = await index.usedIn({ projectId, channel: 'production', target: { itemCodename: 'about' } });
      expect(used.map((v) => v.item.system.codename)).toEqual(['contact', 'home']);
      const byAsset = await index.usedIn({ projectId, channel: 'production', target: { assetId: asset } });
      expect(byAsset.map((v) => v.item.system.codename)).toEqual(['home']);
      expect(await index.usedIn({ projectId, channel: 'preview', target: { itemCodename: 'about' } })).toEqual([]);
    });

    it('follows an edit: the dependents and used-in of the new version only', async () => {
      await index.apply({
        projectId,
        toSeq: 4,
        timestamp: new Date('2024-05-02T00:00:00Z'),
        items: [{ itemId: id(3), channel: 'production', documents: [doc({ n: 3, codename: 'contact' })] }],
        model: null,
      });
      expect(await index.dependents({ projectId, itemIds: [id(2)], assetIds: [] })).toEqual([id(1)]);
      const used = await index.usedIn({ projectId, channel: 'production', target: { itemCodename: 'about' } });
      expect(used.map((v) => v.item.system.codename)).toEqual(['home']);
      expect(await codenames()).toEqual(['about', 'contact', 'home']);
    });

    it('keeps the allowed types of restricted elements beside the types, whose JSON stays as given', async () => {
      expect(await index.typeLinks?.(projectId)).toEqual({});
      const type = {
        system: { id: id(9), name: 'Landing', codename: 'landing', last_modified: '2024-05-02T00:00:00.0000000Z' },
        elements: { featured: { type: 'modular_content', name: 'Featured' } },
      };
      const typeLinks = { landing: { featured: ['article', 'landing'] } };
      const at = new Date('2024-05-02T00:00:00Z');
      await index.apply({
        projectId,
        toSeq: 5,
        timestamp: at,
        items: [],
        model: { ...model, types: [type], typeLinks },
      });
      expect(await index.types(projectId)).toEqual([type]);
      expect(await index.typeLinks?.(projectId)).toEqual(typeLinks);
      await index.apply({ projectId, toSeq: 6, timestamp: at, items: [], model: { ...model, types: [type] } });
      expect(await index.typeLinks?.(projectId)).toEqual({});
    });

    it('rebuilds from scratch after a reset', async () => {
      await index.reset(projectId);
      expect(await index.hasModel(projectId)).toBe(false);
      const fresh = doc({ n: 4, codename: 'fresh' });
      await index.apply({
        projectId,
        toSeq: 5,
        timestamp: new Date('2024-05-03T00:00:00Z'),
        items: [{ itemId: fresh.itemId, channel: 'production', documents: [fresh] }],
        model,
      });
      expect(await index.watermark(projectId)).toBe(5);
      expect(await index.hasModel(projectId)).toBe(true);
      expect(await codenames()).toEqual(['fresh']);
      expect(await index.indexedItemIds(projectId)).toEqual([id(4)]);
      const changes = await index.changesSince({ projectId, channel: 'production', afterSeq: 0, limit: 100 });
      expect(changes.map((c) => `${c.seq}:${c.changeType}:${c.itemCodename}`)).toEqual(['5:changed:fresh']);
    });
  });
}
