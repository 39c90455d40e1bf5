import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DeliveryElement,
  DeliveryIndexReader,
  DeliveryIndexWriter,
  IndexDocument,
  ItemFilter,
  ItemQuery,
} from '@lectern/core';
import { describeConditionCases } from './delivery-index-contract-conditions.ts';
import { everyItem } from './item-queries.ts';

/** An index adapter under test: its reader and writer, and how to release it. */
export interface OpenedIndex {
  readonly index: DeliveryIndexReader & DeliveryIndexWriter;
  close(): Promise<void>;
}

const projectId = '11111111-1111-4111-8111-111111111111';

interface Spec {
  id: string;
  codename: string;
  language: string;
  type?: string;
  lastModified?: string;
  elements: Record<string, DeliveryElement>;
}

function doc(s: Spec): IndexDocument {
  return {
    itemId: s.id,
    language: s.language,
    item: {
      system: {
        id: s.id,
        name: s.codename.toUpperCase(),
        codename: s.codename,
        language: s.language,
        type: s.type ?? 'article',
        collection: 'default',
        sitemap_locations: [],
        last_modified: s.lastModified ?? '2024-01-01T00:00:00.0000000Z',
        workflow: 'default',
        workflow_step: 'published',
      },
      elements: s.elements,
    },
    linkedItemCodenames: [],
    components: {},
    dependsOnItemIds: [],
    assetIds: [],
    usesItemCodenames: [],
  };
}

const text = (value: string | null): DeliveryElement => ({ type: 'text', name: 'T', value });
const num = (value: number | null): DeliveryElement => ({ type: 'number', name: 'N', value });
const linked = (value: string[]): DeliveryElement => ({ type: 'modular_content', name: 'L', value });
const choice = (codenames: string[]): DeliveryElement => ({
  type: 'multiple_choice',
  name: 'C',
  value: codenames.map((c) => ({ name: c, codename: c })),
});
const custom = (value: string | null): DeliveryElement => ({ type: 'custom', name: 'X', value });
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const specs: Spec[] = [
  {
    id: id(1),
    codename: 'alpha',
    language: 'en',
    lastModified: '2024-03-01T10:00:00.0000000Z',
    elements: {
      title: text('Banana'),
      count: num(10),
      rel: linked(['beta', 'gamma']),
      tags: choice(['red', 'blue']),
      extra: custom('["DE","US"]'),
    },
  },
  {
    id: id(1),
    codename: 'alpha',
    language: 'es',
    elements: { title: text('Plátano'), count: num(10), rel: linked([]), tags: choice([]), extra: custom(null) },
  },
  {
    id: id(2),
    codename: 'beta',
    language: 'en',
    lastModified: '2024-02-01T10:00:00.0000000Z',
    elements: {
      title: text('apple'),
      count: num(9),
      rel: linked(['alpha']),
      tags: choice(['red']),
      extra: custom('x'),
    },
  },
  {
    id: id(3),
    codename: 'gamma',
    language: 'es',
    type: 'page',
    lastModified: '2024-01-15T10:00:00.0000000Z',
    elements: { title: text(''), count: num(100), rel: linked(['alpha', 'beta']), tags: choice(['blue', 'green']) },
  },
  {
    id: id(4),
    codename: 'delta',
    language: 'en',
    type: 'page',
    lastModified: '2024-04-01T10:00:00.0000000Z',
    elements: {
      title: text('Cherry'),
      count: num(null),
      rel: linked([]),
      tags: choice(['green']),
      extra: custom('["US"]'),
    },
  },
];

/**
 * The DeliveryIndexReader contract (with the writer that fills it): language fallbacks, every filter
 * operator, ordering, paging, total count, codename lookups, Sync changes and the watermark.
 */
export function describeDeliveryIndexContract(options: { engine: string; open: () => Promise<OpenedIndex> }) {
  describe(`delivery index contract on ${options.engine}`, () => {
    let opened: OpenedIndex;
    let index: OpenedIndex['index'];
    const base = everyItem(projectId, { isTotalCountNeeded: true });
    const codenames = async (q: Partial<ItemQuery>) =>
      (await index.queryItems({ ...base, ...q })).items.map((i) => i.item.system.codename);
    const where = (property: string, operator: ItemFilter['operator'], values: string[] = []) =>
      codenames({ filters: [{ property, operator, values }] });

    beforeAll(async () => {
      opened = await options.open();
      index = opened.index;
      const documents = new Map<string, IndexDocument[]>();
      for (const s of specs) documents.set(s.id, [...(documents.get(s.id) ?? []), doc(s)]);
      await index.apply({
        projectId,
        toSeq: 5,
        timestamp: new Date('2024-05-01T00:00:00Z'),
        items: [...documents].map(([itemId, docs]) => ({ itemId, channel: 'production' as const, documents: docs })),
        model: { types: [], taxonomies: [], languages: [] },
      });
    });
    afterAll(async () => {
      await opened.close();
    });

    it('keeps the watermark and ignores a batch that is not newer', async () => {
      expect(await index.watermark(projectId)).toBe(5);
      const isApplied = await index.apply({
        projectId,
        toSeq: 5,
        timestamp: new Date(),
        items: [{ itemId: id(1), channel: 'production', documents: [] }],
        model: null,
      });
      expect(isApplied).toBe(false);
      expect(await codenames({})).toEqual(['alpha', 'beta', 'delta']);
    });

    it('resolves each item once in the first language of the list it has', async () => {
      const items = (await index.queryItems({ ...base, languages: ['es', 'en'] })).items;
      expect(items.map((i) => [i.item.system.codename, i.language])).toEqual([
        ['alpha', 'es'],
        ['beta', 'en'],
        ['delta', 'en'],
        ['gamma', 'es'],
      ]);
      expect(await codenames({ languages: ['es'] })).toEqual(['alpha', 'gamma']);
      // system.language disables fallbacks: only variants really in es
      expect(
        await codenames({
          languages: ['es', 'en'],
          filters: [{ property: 'system.language', operator: 'eq', values: ['es'] }],
        }),
      ).toEqual(['alpha', 'gamma']);
    });

    it('eq / neq / in / nin on strings and numbers', async () => {
      expect(await where('system.type', 'eq', ['page'])).toEqual(['delta']);
      expect(await where('elements.title', 'eq', ['apple'])).toEqual(['beta']);
      expect(await where('elements.count', 'eq', ['10'])).toEqual(['alpha']);
      expect(await where('elements.count', 'eq', ['10.0'])).toEqual(['alpha']);
      expect(await where('elements.title', 'neq', ['apple'])).toEqual(['alpha', 'delta']);
      expect(await where('system.codename', 'in', ['beta', 'delta', 'zeta'])).toEqual(['beta', 'delta']);
      expect(await where('elements.count', 'in', ['9', '10'])).toEqual(['alpha', 'beta']);
      expect(await where('system.codename', 'nin', ['beta'])).toEqual(['alpha', 'delta']);
      expect(await where('system.id', 'eq', [id(2)])).toEqual(['beta']);
    });

    it('lt / lte / gt / gte / range: numbers numerically, everything else as strings', async () => {
      expect(await where('elements.count', 'gt', ['9'])).toEqual(['alpha']);
      expect(await where('elements.count', 'gte', ['9'])).toEqual(['alpha', 'beta']);
      expect(await where('elements.count', 'lt', ['10'])).toEqual(['beta']);
      expect(await where('elements.count', 'lte', ['10'])).toEqual(['alpha', 'beta']);
      expect(await where('elements.count', 'range', ['9.5', '100'])).toEqual(['alpha']);
      // strings compare as strings: 'Banana' < 'Cherry' < 'apple' (code points)
      expect(await where('elements.title', 'lt', ['C'])).toEqual(['alpha']);
      expect(await where('elements.title', 'gt', ['Z'])).toEqual(['beta']);
      expect(await where('system.last_modified', 'lt', ['2024-03-01'])).toEqual(['beta']);
      expect(await where('system.last_modified', 'range', ['2024-02-01', '2024-03-02'])).toEqual(['alpha', 'beta']);
    });

    it('contains / any / all on linked items, multiple choice and custom arrays only', async () => {
      expect(await where('elements.rel', 'contains', ['alpha'])).toEqual(['beta']);
      expect(await where('elements.tags', 'contains', ['red'])).toEqual(['alpha', 'beta']);
      expect(await where('elements.tags', 'any', ['blue', 'green'])).toEqual(['alpha', 'delta']);
      expect(await where('elements.tags', 'all', ['red', 'blue'])).toEqual(['alpha']);
      expect(await where('elements.extra', 'contains', ['US'])).toEqual(['alpha', 'delta']);
      expect(await where('elements.extra', 'all', ['DE', 'US'])).toEqual(['alpha']);
      expect(await where('elements.title', 'contains', ['apple'])).toEqual([]);
    });

    it('empty / nempty, and a filter on a missing element matches nothing', async () => {
      expect(await where('elements.count', 'empty')).toEqual(['delta']);
      expect(await where('elements.count', 'nempty')).toEqual(['alpha', 'beta']);
      expect(await where('elements.rel', 'empty')).toEqual(['delta']);
      expect(await where('elements.extra', 'empty', [])).toEqual([]);
      expect(
        await codenames({
          languages: ['es'],
          filters: [{ property: 'elements.title', operator: 'empty', values: [] }],
        }),
      ).toEqual(['gamma']);
      expect(await where('elements.nope', 'neq', ['x'])).toEqual([]);
      expect(await where('elements.nope', 'empty')).toEqual([]);
      expect(await where('elements.nope', 'nin', ['x'])).toEqual([]);
      // several filters: AND
      expect(
        await codenames({
          filters: [
            { property: 'elements.tags', operator: 'contains', values: ['red'] },
            { property: 'elements.count', operator: 'gt', values: ['9'] },
          ],
        }),
      ).toEqual(['alpha']);
    });

    it('orders by system and element properties both ways, ties by codename', async () => {
      expect(await codenames({ order: { property: 'elements.count', direction: 'asc' } })).toEqual([
        'beta',
        'alpha',
        'delta',
      ]);
      expect(await codenames({ order: { property: 'elements.count', direction: 'desc' } })).toEqual([
        'delta',
        'alpha',
        'beta',
      ]);
      expect(await codenames({ order: { property: 'system.last_modified', direction: 'desc' } })).toEqual([
        'delta',
        'alpha',
        'beta',
      ]);
      expect(await codenames({ order: { property: 'system.type', direction: 'asc' } })).toEqual([
        'alpha',
        'beta',
        'delta',
      ]);
      // null sorts as the greatest value: last ascending, first descending
      expect(
        await codenames({ languages: ['es', 'en'], order: { property: 'elements.count', direction: 'desc' } }),
      ).toEqual(['delta', 'gamma', 'alpha', 'beta']);
    });

    it('answers the same with the model hint (typeElements) as without', async () => {
      const elements = { title: 'text', count: 'number', rel: 'modular_content', tags: 'multiple_choice' };
      const typeElements = { article: { ...elements, extra: 'custom' }, page: elements };
      const queries: Partial<ItemQuery>[] = [
        { filters: [{ property: 'elements.count', operator: 'gte', values: ['9'] }] },
        { filters: [{ property: 'elements.count', operator: 'in', values: ['9', '100', 'x'] }] },
        { filters: [{ property: 'elements.title', operator: 'lt', values: ['C'] }] },
        { filters: [{ property: 'elements.title', operator: 'empty', values: [] }], languages: ['es'] },
        { filters: [{ property: 'elements.count', operator: 'empty', values: [] }] },
        { filters: [{ property: 'elements.extra', operator: 'nempty', values: [] }] },
        { order: { property: 'elements.count', direction: 'desc' }, languages: ['es', 'en'] },
        { order: { property: 'elements.title', direction: 'asc' }, languages: ['es', 'en'] },
        {
          filters: [{ property: 'system.type', operator: 'eq', values: ['page'] }],
          order: { property: 'elements.count', direction: 'desc' },
          languages: ['es', 'en'],
        },
        {
          filters: [
            { property: 'system.type', operator: 'in', values: ['article', 'page'] },
            { property: 'elements.count', operator: 'range', values: ['9', '100'] },
          ],
          order: { property: 'elements.count', direction: 'asc' },
          languages: ['es', 'en'],
        },
      ];
      for (const q of queries) {
        const plain = await codenames(q);
        expect(await codenames({ ...q, typeElements }), JSON.stringify(q)).toEqual(plain);
      }
      // The hint names an element as a number: a string comparison still finds nothing odd.
      expect(await codenames({ typeElements, order: { property: 'elements.count', direction: 'asc' } })).toEqual([
        'beta',
        'alpha',
        'delta',
      ]);
    });

    describeConditionCases(codenames);

    it('pages with skip and limit and counts every match', async () => {
      const page = await index.queryItems({ ...base, languages: ['es', 'en'], skip: 1, limit: 2 });
      expect(page.items.map((i) => i.item.system.codename)).toEqual(['beta', 'delta']);
      expect(page.totalCount).toBe(4);
      const past = await index.queryItems({ ...base, skip: 10, limit: 2 });
      expect(past.items).toEqual([]);
      expect(past.totalCount).toBe(3);
      expect((await index.queryItems({ ...base, isTotalCountNeeded: false })).totalCount).toBeNull();
    });

    it('finds items by codename through the language list, and where items are used', async () => {
      const found = await index.itemsByCodename({
        projectId,
        channel: 'production',
        languages: ['es', 'en'],
        codenames: ['gamma', 'beta', 'zeta'],
      });
      expect(found.map((i) => `${i.item.system.codename}:${i.language}`).sort()).toEqual(['beta:en', 'gamma:es']);
      expect(
        await index.itemsByCodename({ projectId, channel: 'preview', languages: ['en'], codenames: ['beta'] }),
      ).toEqual([]);
    });

    it('records Sync changes and removes documents', async () => {
      const before = await index.changesSince({ projectId, channel: 'production', afterSeq: 0, limit: 100 });
      expect(before).toHaveLength(5);
      expect(before.every((c) => c.seq === 5 && c.changeType === 'changed')).toBe(true);
      // one sequence is never split across pages
      expect(await index.changesSince({ projectId, channel: 'production', afterSeq: 0, limit: 2 })).toHaveLength(5);
      await index.apply({
        projectId,
        toSeq: 6,
        timestamp: new Date('2024-05-02T00:00:00Z'),
        items: [{ itemId: id(4), channel: 'production', documents: [] }],
        model: null,
      });
      const after = await index.changesSince({ projectId, channel: 'production', afterSeq: 5, limit: 100 });
      expect(after).toEqual([
        {
          seq: 6,
          changeType: 'deleted',
          itemCodename: 'delta',
          itemId: id(4),
          language: 'en',
          type: 'page',
          collection: 'default',
          timestamp: '2024-05-02T00:00:00.0000000Z',
          // The removed document's system object, for the Sync entry of the deletion.
          system: expect.objectContaining({
            id: id(4),
            name: 'DELTA',
            codename: 'delta',
            workflow: 'default',
            workflow_step: 'published',
          }) as unknown,
        },
      ]);
      expect(await codenames({})).toEqual(['alpha', 'beta']);
      expect(await index.watermark(projectId)).toBe(6);
    });

    it('shows no Sync change of a partial batch until the batch that moves the watermark', async () => {
      const mark = await index.watermark(projectId);
      const part = (itemId: string, isPartial: boolean) =>
        index.apply({
          projectId,
          toSeq: mark + 3,
          timestamp: new Date('2024-05-03T00:00:00Z'),
          items: [
            {
              itemId,
              channel: 'production',
              documents: [doc({ id: itemId, codename: `part_${itemId.slice(-2)}`, language: 'en', elements: {} })],
            },
          ],
          model: null,
          ...(isPartial ? { isPartial: true } : {}),
        });
      expect(await part(id(71), true)).toBe(true);
      expect(await index.watermark(projectId)).toBe(mark);
      expect(await index.changesSince({ projectId, channel: 'production', afterSeq: mark, limit: 100 })).toEqual([]);
      expect(await part(id(72), false)).toBe(true);
      expect(await index.watermark(projectId)).toBe(mark + 3);
      const changes = await index.changesSince({ projectId, channel: 'production', afterSeq: mark, limit: 100 });
      expect(changes.map((c) => c.itemCodename).sort()).toEqual(['part_71', 'part_72']);
      await index.apply({
        projectId,
        toSeq: mark + 4,
        timestamp: new Date(),
        items: [id(71), id(72)].map((itemId) => ({ itemId, channel: 'production' as const, documents: [] })),
        model: null,
      });
    });

    it('records the model changes of each channel, the last per object', async () => {
      const type = (n: string, lastModified: string) => ({
        system: { id: id(90), name: n, codename: 'gadget', last_modified: lastModified },
        elements: {},
      });
      const since = (afterSeq: number) =>
        index.modelChangesSince?.({ projectId, channel: 'preview', afterSeq, toSeq: 100 });
      const base = (await index.watermark(projectId)) + 10;
      const model = { taxonomies: [], languages: await index.languages(projectId) };
      const at = new Date('2024-06-01T00:00:00Z');
      await index.apply({ projectId, toSeq: base, timestamp: at, items: [], model: { ...model, types: [] } });
      const mark = base;
      await index.apply({
        projectId,
        toSeq: base + 1,
        timestamp: at,
        items: [],
        model: { ...model, types: [type('Gadget', '2024-06-01T00:00:00.0000000Z')] },
      });
      expect(await since(mark)).toEqual([
        {
          seq: base + 1,
          kind: 'type',
          changeType: 'changed',
          system: { id: id(90), name: 'Gadget', codename: 'gadget', last_modified: '2024-06-01T00:00:00.0000000Z' },
          timestamp: '2024-06-01T00:00:00.0000000Z',
        },
      ]);
      await index.apply({ projectId, toSeq: base + 2, timestamp: at, items: [], model: { ...model, types: [] } });
      expect((await since(mark))?.map((c) => `${c.seq}:${c.kind}:${c.changeType}:${c.system.name}`)).toEqual([
        `${base + 2}:type:deleted:Gadget`,
      ]);
      expect(await since(base + 2)).toEqual([]);
    });
  });
}
