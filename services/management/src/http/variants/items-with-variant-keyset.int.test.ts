import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addContentType,
  addItem,
  createProject,
  filterItemsWithVariant,
  operator,
  randomIds,
  systemStepIds,
  upsertVariant,
  zeroId,
  type CoreDeps,
  type VariantQuery,
  type VariantQueryKey,
} from '@lectern/core';
import { createTestClock, createTestDatabase } from '@lectern/testing';
import { filterVariantPage, openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';

/*
 * The inventory query pages by key in every order, on both engines: walking every page returns
 * each matching item once, in the order's key (ties included), and a search gives the same pages
 * whether it is answered by the walk in key order or through the trigram indexes.
 */

const postgresUrl = inject('postgresUrl');
const engines: [string, () => Promise<SqlStore>][] = [
  ['PGlite', () => openPgliteStore()],
  ...(postgresUrl
    ? [
        ['PostgreSQL', async () => openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) })] as [
          string,
          () => Promise<SqlStore>,
        ],
      ]
    : []),
];
const count = 130;
const names = ['apple tart', 'banana bread', 'cherry pie', 'apple tart', 'date loaf', 'elder cordial', 'fig jam'];
type Order = NonNullable<VariantQuery['order']>;
const orders: Order[] = [
  { by: 'position', direction: 'asc' },
  ...(['name', 'last_modified', 'due_date'] as const).flatMap((by) =>
    (['asc', 'desc'] as const).map((direction) => ({ by, direction })),
  ),
];

describe.each(engines)('the inventory query on %s', (_engine, open) => {
  let store: SqlStore;
  let core: CoreDeps;
  let projectId: string;
  const ids: string[] = [];

  async function walk(body: Record<string, unknown>): Promise<string[]> {
    const out: string[] = [];
    let token: string | null = null;
    do {
      const page = await filterItemsWithVariant(core, {
        actor: operator,
        projectId,
        body,
        ...(token ? { continuation: { token, source: { kind: 'header' as const, name: 'x-continuation' } } } : {}),
      });
      out.push(...page.items.map((p) => p.item.id));
      token = page.continuationToken;
    } while (token !== null);
    return out;
  }

  beforeAll(async () => {
    store = await open();
    const clock = createTestClock();
    core = { store, clock, ids: randomIds };
    projectId = (await createProject(core, { actor: operator, name: 'Inventory' })).id;
    const input = { actor: operator, projectId };
    await addContentType(core, {
      ...input,
      body: {
        name: 'Recipe',
        codename: 'recipe',
        elements: [
          { name: 'Title', codename: 'title', type: 'text', is_required: true },
          { name: 'Body', codename: 'body', type: 'rich_text' },
        ],
      },
    });
    for (let i = 0; i < count; i++) {
      const name = names[i % names.length] as string;
      const item = await addItem(core, { ...input, body: { name, codename: `r_${i}`, type: { codename: 'recipe' } } });
      ids.push(item['id'] as string);
      clock.advance(((i * 37) % 3) * 1000); // some variants share their last change
      await upsertVariant(core, {
        ...input,
        itemKey: { codename: `r_${i}` },
        languageKey: { id: zeroId },
        body: {
          elements: [
            ...(i % 9 === 0 ? [] : [{ element: { codename: 'title' }, value: `${name} ${i}` }]),
            {
              element: { codename: 'body' },
              value: i % 5 === 0 ? '<p>With <strong>espresso</strong></p>' : '<p>Plain</p>',
            },
          ],
        },
      });
    }
    // Due dates on every third variant, some equal (no route sets them without a workflow move).
    await store.transaction(async (tx) => {
      for (const v of await tx.variants.findManyInLanguage(projectId, zeroId, ids)) {
        const i = ids.indexOf(v.itemId);
        if (i % 3 === 0) await tx.variants.save({ ...v, dueDate: `2027-01-0${1 + (i % 4)}T00:00:00Z` });
      }
    });
  });
  afterAll(async () => {
    await store.close();
  });

  it('walks every order page by page: each item once, in the order of its key', async () => {
    const variants = new Map(
      (await store.transaction((tx) => tx.variants.findManyInLanguage(projectId, zeroId, ids))).map((v) => [
        v.itemId,
        v,
      ]),
    );
    const keyOf = (by: Order['by'], id: string): string => {
      const v = variants.get(id);
      if (by === 'name') return names[ids.indexOf(id) % names.length] as string;
      if (by === 'last_modified') return v?.lastModified.toISOString() ?? '';
      if (by === 'due_date') return v?.dueDate ?? '';
      return String(ids.indexOf(id)).padStart(5, '0');
    };
    for (const order of orders) {
      const body = { filters: {}, ...(order.by === 'position' ? {} : { order }) };
      const walked = await walk(body);
      expect(new Set(walked).size).toBe(count);
      expect(walked.length).toBe(count);
      const keys = walked.map((id) => keyOf(order.by, id));
      const sorted = [...keys].sort();
      expect(keys).toEqual(order.direction === 'asc' ? sorted : sorted.reverse());
      if (order.by === 'position') expect(walked).toEqual(ids);
    }
  });

  it('answers a search alike from the walk in key order and from the trigram indexes, page by page', async () => {
    const query = (order: Order): VariantQuery => ({
      languageId: zeroId,
      searchPhrase: 'espresso',
      typeIds: null,
      collectionIds: null,
      componentTypeIds: null,
      contributorIds: null,
      hasNoContributors: false,
      completion: null,
      steps: null,
      taxonomies: null,
      publishing: null,
      archivedStepId: systemStepIds.archived,
      order,
    });
    const pages = async (order: Order, scanRows: number) => {
      const out: string[][] = [];
      let after: VariantQueryKey | null = null;
      do {
        const page = await filterVariantPage(store.db, projectId, query(order), { after, limit: 7 }, { scanRows });
        out.push(page.itemIds);
        after = page.next;
      } while (after !== null);
      return out;
    };
    const expected = ids.filter((_, i) => i % 5 === 0);
    for (const order of orders) {
      const byWalk = await pages(order, 1_000_000);
      const byIndex = await pages(order, 0);
      const byTwoWalks = await pages(order, 20); // 4 of 20 match: a second, longer walk
      expect(byIndex).toEqual(byWalk);
      expect(byTwoWalks).toEqual(byWalk);
      expect(new Set(byWalk.flat())).toEqual(new Set(expected));
    }
    expect(await walk({ filters: { search_phrase: 'ESPRESSO' } })).toEqual(expected);
    expect(await walk({ filters: { search_phrase: 'banana bread 8' } })).toEqual([ids[8], ids[85]]);
    // LIKE's wildcards are plain characters in a phrase.
    expect(await walk({ filters: { search_phrase: '%' } })).toEqual([]);
    expect(await walk({ filters: { search_phrase: 'apple_tart' } })).toEqual([]);
  });

  it('splits the variants into ready and unfinished as publishing would', async () => {
    const unfinished = ids.filter((_, i) => i % 9 === 0);
    expect(await walk({ filters: { completion_statuses: ['unfinished'] } })).toEqual(unfinished);
    expect(await walk({ filters: { completion_statuses: ['ready'] } })).toEqual(ids.filter((_, i) => i % 9 !== 0));
    expect(await walk({ filters: { completion_statuses: ['completed', 'unfinished'] } })).toEqual(ids);
  });

  it('refuses a token of another order, a search phrase over 200 characters and more than 100 references', async () => {
    const first = await filterItemsWithVariant(core, { actor: operator, projectId, body: { filters: {} } });
    const token = first.continuationToken as string;
    await expect(
      filterItemsWithVariant(core, {
        actor: operator,
        projectId,
        body: { filters: {}, order: { by: 'name', direction: 'asc' } },
        continuation: { token, source: { kind: 'header', name: 'x-continuation' } },
      }),
    ).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(
      filterItemsWithVariant(core, {
        actor: operator,
        projectId,
        body: { filters: { search_phrase: 'a'.repeat(201) } },
      }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST_BODY', problems: [{ path: 'filters.search_phrase' }] });
    const many = Array.from({ length: 101 }, (_, i) => ({ codename: `t_${i}` }));
    await expect(
      filterItemsWithVariant(core, { actor: operator, projectId, body: { filters: { content_types: many } } }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST_BODY', problems: [{ path: 'filters.content_types' }] });
  });

  it('counts a count limit broken by too few linked items as unfinished, an empty element as complete', async () => {
    const input = { actor: operator, projectId };
    await addContentType(core, {
      ...input,
      body: {
        name: 'List',
        codename: 'list',
        elements: [
          {
            name: 'Links',
            codename: 'links',
            type: 'modular_content',
            item_count_limit: { value: 2, condition: 'at_least' },
          },
        ],
      },
    });
    const lists: string[] = [];
    for (const [i, links] of [[], [{ id: ids[1] }], [{ id: ids[1] }, { id: ids[2] }]].entries()) {
      const item = await addItem(core, { ...input, body: { name: `List ${i}`, type: { codename: 'list' } } });
      lists.push(item['id'] as string);
      await upsertVariant(core, {
        ...input,
        itemKey: { id: item['id'] as string },
        languageKey: { id: zeroId },
        body: { elements: [{ element: { codename: 'links' }, value: links }] },
      });
    }
    const of = (statuses: string[]) =>
      walk({ filters: { content_types: [{ codename: 'list' }], completion_statuses: statuses } });
    expect(await of(['unfinished'])).toEqual([lists[1]]);
    expect(await of(['ready'])).toEqual([lists[0], lists[2]]);
  });
});
