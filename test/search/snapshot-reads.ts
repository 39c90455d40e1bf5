import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexDocument, ReadPin } from '@lectern/core';
import { everyItem, type OpenedIndex } from '@lectern/testing';

/** The project these tests write to. */
export const snapshotProjectId = '33333333-3333-4333-8333-333333333333';
/** A second project sharing the index. */
export const neighbourProjectId = '44444444-4444-4444-8444-444444444444';
const projectId = snapshotProjectId;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function doc(n: number, codename: string, title: string): IndexDocument {
  return {
    itemId: id(n),
    language: 'en',
    item: {
      system: {
        id: id(n),
        name: codename,
        codename,
        language: 'en',
        type: 'article',
        collection: 'default',
        sitemap_locations: [],
        last_modified: '2024-01-01T00:00:00.0000000Z',
      },
      elements: { title: { type: 'text', name: 'Title', value: title } },
    },
    linkedItemCodenames: [],
    components: {},
    dependsOnItemIds: [],
    assetIds: [],
    usesItemCodenames: [],
  };
}

const model = { types: [], taxonomies: [], languages: [] };

/**
 * What the search-engine index promises beyond the shared contract: every read is pinned to the
 * watermark, so documents of a batch (or of the parts of a re-render) appear all at once when the
 * watermark moves, never before; and a rebuild serves the old documents until it is complete.
 */
export function describeSnapshotReads(options: { engine: string; open: () => Promise<OpenedIndex> }) {
  describe(`reads pinned to the watermark on ${options.engine}`, () => {
    let opened: OpenedIndex;
    let index: OpenedIndex['index'];
    const query = everyItem(projectId, { isTotalCountNeeded: true });
    const titles = async () => {
      const found = await index.queryItems(query);
      const linked = await index.itemsByCodename({ ...query, codenames: ['a', 'b', 'c'] });
      return {
        list: found.items.map((i) => `${i.item.system.codename}:${String(i.item.elements['title']?.value)}`),
        total: found.totalCount,
        linked: linked.map((i) => i.item.system.codename),
      };
    };
    const write = (toSeq: number, docs: IndexDocument[], isPartial = false, inProject = projectId) =>
      index.apply({
        projectId: inProject,
        toSeq,
        timestamp: new Date('2024-05-01T00:00:00Z'),
        items: docs.map((d) => ({ itemId: d.itemId, channel: 'production' as const, documents: [d] })),
        model: isPartial ? null : model,
        ...(isPartial ? { isPartial: true } : {}),
      });

    beforeAll(async () => {
      opened = await options.open();
      index = opened.index;
      await write(1, [doc(1, 'a', 'A1')]);
    });
    afterAll(async () => {
      await opened.close();
    });

    it('shows the parts of a re-render only when the last part moves the watermark', async () => {
      await write(2, [doc(1, 'a', 'A2'), doc(2, 'b', 'B2')], true);
      expect(await index.watermark(projectId)).toBe(1);
      expect(await titles()).toEqual({ list: ['a:A1'], total: 1, linked: ['a'] });
      await write(2, [doc(3, 'c', 'C2')]);
      expect(await index.watermark(projectId)).toBe(2);
      expect(await titles()).toEqual({ list: ['a:A2', 'b:B2', 'c:C2'], total: 3, linked: ['a', 'b', 'c'] });
    });

    it('keeps projects apart in the index they share', async () => {
      await write(7, [doc(9, 'a', 'Neighbour A'), doc(8, 'z', 'Neighbour Z')], false, neighbourProjectId);
      expect(await titles()).toEqual({ list: ['a:A2', 'b:B2', 'c:C2'], total: 3, linked: ['a', 'b', 'c'] });
      const theirs = await index.queryItems({ ...query, projectId: neighbourProjectId });
      expect(theirs.items.map((i) => i.item.system.codename)).toEqual(['a', 'z']);
      expect((await index.indexedItemIds(neighbourProjectId)).sort()).toEqual([id(8), id(9)]);
    });

    it('serves the old documents during a rebuild and the new ones after the alias swap', async () => {
      await index.reset(projectId);
      await write(3, [doc(1, 'a', 'A3')], true);
      expect(await titles()).toEqual({ list: ['a:A2', 'b:B2', 'c:C2'], total: 3, linked: ['a', 'b', 'c'] });
      await write(3, [doc(2, 'b', 'B3')]);
      expect(await index.watermark(projectId)).toBe(3);
      expect(await titles()).toEqual({ list: ['a:A3', 'b:B3'], total: 2, linked: ['a', 'b'] });
      // The neighbour stayed where it was, untouched.
      const theirs = await index.queryItems({ ...query, projectId: neighbourProjectId });
      expect(theirs.items.map((i) => i.item.elements['title']?.value)).toEqual(['Neighbour A', 'Neighbour Z']);
    });

    it('rebuilds the neighbour too, and a project a second time, each answering from its new documents', async () => {
      await index.reset(neighbourProjectId);
      await write(8, [doc(9, 'a', 'Neighbour A2')], false, neighbourProjectId);
      const theirs = await index.queryItems({ ...query, projectId: neighbourProjectId });
      expect(theirs.items.map((i) => i.item.elements['title']?.value)).toEqual(['Neighbour A2']);
      await index.reset(projectId);
      await write(9, [doc(1, 'a', 'A9')], true);
      expect(await titles()).toEqual({ list: ['a:A3', 'b:B3'], total: 2, linked: ['a', 'b'] });
      await write(9, [doc(3, 'c', 'C9')]);
      expect(await titles()).toEqual({ list: ['a:A9', 'c:C9'], total: 2, linked: ['a', 'c'] });
      const again = await index.queryItems({ ...query, projectId: neighbourProjectId });
      expect(again.items.map((i) => i.item.elements['title']?.value)).toEqual(['Neighbour A2']);
    });

    it('reads linked items at the watermark of the list they are linked from, while that pin is young', async () => {
      const list = await index.queryItems(query);
      expect(list.pin?.watermark).toBe(9);
      await write(10, [doc(1, 'a', 'A10')]);
      const linkedTitles = async (pin: ReadPin | undefined) =>
        (await index.itemsByCodename({ ...query, codenames: ['a', 'c'], pin })).map((i) =>
          String(i.item.elements['title']?.value),
        );
      // One answer reads one state: the list's linked items as they were when the list was read.
      expect(await linkedTitles(list.pin)).toEqual(['A9', 'C9']);
      expect(await linkedTitles(undefined)).toEqual(['A10', 'C9']);
      // A pin older than half the grace time (60 s here) is not honoured: the watermark is read again.
      expect(await linkedTitles({ watermark: 9, readAt: Date.now() - 31_000 })).toEqual(['A10', 'C9']);
      expect((await index.queryItems(query)).pin?.watermark).toBe(10);
    });
  });
}
