import { describe, expect, inject, it } from 'vitest';
import type { IndexDocument } from '@lectern/core';
import { openSearchDeliveryIndex } from '@lectern/engines';
import { connectSearchEngine } from '@lectern/search-engine';
import { openPgliteStore } from '@lectern/store-sql';
import { uniqueIndexName } from '../engines/search-fixture.ts';

const searchUrl = inject('searchUrl');
const projectId = '55555555-5555-4555-8555-555555555555';

function doc(n: number, title: string): IndexDocument {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    itemId: id,
    language: 'en',
    item: {
      system: {
        id,
        name: `item ${n}`,
        codename: `item_${n}`,
        language: 'en',
        type: 'page',
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

describe.skipIf(!searchUrl)('superseded document versions', () => {
  it('stay for readers of older watermarks during the grace time, then are deleted', async () => {
    const store = await openPgliteStore();
    const engine = connectSearchEngine({ flavour: 'opensearch', url: searchUrl });
    const prefix = uniqueIndexName('sweep');
    let clock = 1_000_000;
    const index = openSearchDeliveryIndex({ engine, db: store.db, prefix, archiveGraceMs: 10_000, now: () => clock });
    const write = (toSeq: number, d: IndexDocument) =>
      index.apply({
        projectId,
        toSeq,
        timestamp: new Date(clock),
        items: [{ itemId: d.itemId, channel: 'production', documents: [d] }],
        model: { types: [], taxonomies: [], languages: [] },
      });
    const superseded = async () => {
      const answer = await engine.search(`${prefix}-${projectId}`, {
        query: { exists: { field: 'until' } },
        size: 0,
        track_total_hits: true,
      });
      const total = answer.hits.total;
      return typeof total === 'number' ? total : (total?.value ?? 0);
    };
    try {
      await write(1, doc(1, 'first'));
      await write(2, doc(1, 'second'));
      expect(await superseded()).toBe(1);
      clock += 6_000; // within the grace time: kept
      await write(3, doc(2, 'other'));
      await index.sweeping();
      expect(await superseded()).toBe(1);
      clock += 6_000; // past it
      await write(4, doc(3, 'another'));
      // The sweep runs behind the batch (it does not delay visibility).
      await index.sweeping();
      expect(await superseded()).toBe(0);
      const found = await index.queryItems({
        projectId,
        channel: 'production',
        languages: ['en'],
        filters: [],
        order: null,
        skip: 0,
        limit: null,
        isTotalCountNeeded: true,
      });
      expect(found.items.map((i) => i.item.elements['title']?.value)).toEqual(['second', 'other', 'another']);
    } finally {
      await index.dropProject(projectId);
      await engine.close();
      await store.close();
    }
  });
});
