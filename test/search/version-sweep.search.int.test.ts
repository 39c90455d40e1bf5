import { describe, expect, inject, it } from 'vitest';
import type { IndexDocument } from '@lectern/core';
import { openSearchDeliveryIndex } from '@lectern/engines';
import { connectSearchEngine } from '@lectern/search-engine';
import { openPgliteStore } from '@lectern/store-sql';
import { everyItem } from '@lectern/testing';
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

/** A search index on OpenSearch with a grace time of 10 s and a clock the test moves. */
async function openIndex(name: string, start: number) {
  const store = await openPgliteStore();
  const engine = connectSearchEngine({ flavour: 'opensearch', url: searchUrl });
  const prefix = uniqueIndexName(name);
  const clock = { now: start };
  const index = openSearchDeliveryIndex({ engine, db: store.db, prefix, archiveGraceMs: 10_000, now: () => clock.now });
  return {
    engine,
    prefix,
    clock,
    index,
    write: (toSeq: number, d: IndexDocument) =>
      index.apply({
        projectId,
        toSeq,
        timestamp: new Date(clock.now),
        items: [{ itemId: d.itemId, channel: 'production', documents: [d] }],
        model: { types: [], taxonomies: [], languages: [] },
      }),
    /** The titles of a list of every item (at `pin` when given) and the pin it was read at. */
    async titlesAt(pin?: { watermark: number; readAt: number }) {
      const found = await index.queryItems(everyItem(projectId, { pin }));
      return { titles: found.items.map((i) => i.item.elements['title']?.value), pin: found.pin };
    },
    async close() {
      await index.dropProject(projectId);
      await engine.close();
      await store.close();
    },
  };
}

describe.skipIf(!searchUrl)('superseded document versions', () => {
  it('stay for readers of older watermarks during the grace time, then are deleted', async () => {
    const { engine, prefix, clock, index, write, titlesAt, close } = await openIndex('sweep', 1_000_000);
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
      clock.now += 6_000; // within the grace time: kept
      await write(3, doc(2, 'other'));
      await index.sweeping();
      expect(await superseded()).toBe(1);
      clock.now += 6_000; // past it
      await write(4, doc(3, 'another'));
      // The sweep runs behind the batch (it does not delay visibility), with no refresh of its own:
      // what it deleted is gone from searches once the next batch refreshes.
      await index.sweeping();
      await write(5, doc(4, 'last'));
      expect(await superseded()).toBe(0);
      expect((await titlesAt()).titles).toEqual(['second', 'other', 'another', 'last']);
    } finally {
      await close();
    }
  });

  it("reads a list at the caller's pin while it is younger than half the grace time, else at the watermark", async () => {
    const { clock: at, write, titlesAt, close } = await openIndex('pin', 2_000_000);
    const clock = at.now;
    try {
      await write(1, doc(1, 'first'));
      await write(2, doc(1, 'second'));
      // Delivery's held watermark, confirmed 4 s ago: the answer is the state at it, pinned to it.
      const held = { watermark: 1, readAt: clock - 4_000 };
      expect(await titlesAt(held)).toEqual({ titles: ['first'], pin: held });
      // Confirmed 6 s ago (past half the grace time): its versions may be swept, so it reads the watermark.
      expect(await titlesAt({ watermark: 1, readAt: clock - 6_000 })).toEqual({
        titles: ['second'],
        pin: { watermark: 2, readAt: clock },
      });
      expect((await titlesAt()).titles).toEqual(['second']);
    } finally {
      await close();
    }
  });
});
