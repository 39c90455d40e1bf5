import { expect, it } from 'vitest';
import type { ItemCondition, ItemFilter, ItemQuery } from '@lectern/core';

const f = (property: string, operator: ItemFilter['operator'], values: string[] = []): ItemFilter => ({
  property,
  operator,
  values,
});

/**
 * Cases of the delivery index contract for AND / OR conditions and orders with ties (`thenBy`),
 * which the GraphQL `where` and `order` use. They run inside `describeDeliveryIndexContract`, on
 * its documents: in `en` alpha (Banana, 10, tags red blue), beta (apple, 9, red), delta (page,
 * Cherry, no count, green); in `es` alpha (Plátano, 10) and gamma (page, '', 100, blue green).
 */
export function describeConditionCases(codenames: (q: Partial<ItemQuery>) => Promise<string[]>): void {
  const when = (...conditions: ItemCondition[]) => codenames({ conditions });

  it('OR matches what either branch matches; an empty OR matches nothing, an empty AND everything', async () => {
    expect(
      await when({ anyOf: [f('elements.title', 'eq', ['apple']), f('elements.tags', 'contains', ['green'])] }),
    ).toEqual(['beta', 'delta']);
    expect(await when({ anyOf: [f('system.codename', 'eq', ['alpha']), f('elements.count', 'lt', ['10'])] })).toEqual([
      'alpha',
      'beta',
    ]);
    expect(await when({ anyOf: [] })).toEqual([]);
    expect(await when({ allOf: [] })).toEqual(['alpha', 'beta', 'delta']);
    // a branch on a missing element matches nothing, the other branch still counts
    expect(await when({ anyOf: [f('elements.nope', 'neq', ['x']), f('system.type', 'eq', ['page'])] })).toEqual([
      'delta',
    ]);
  });

  it('serves an OR of 50 filters, as many as a GraphQL where may hold', async () => {
    const counts = Array.from({ length: 25 }, (_, i) => f('elements.count', 'eq', [String(i)]));
    const titles = Array.from({ length: 24 }, (_, i) => f('elements.title', 'eq', [`none ${i}`]));
    expect(await when({ anyOf: [...counts, ...titles, f('elements.tags', 'contains', ['green'])] })).toEqual([
      'alpha',
      'beta',
      'delta',
    ]);
  });

  it('AND and OR nest, and combine with the plain filters and the language fallbacks', async () => {
    const redOrPage: ItemCondition = {
      anyOf: [f('elements.tags', 'contains', ['red']), f('system.type', 'eq', ['page'])],
    };
    expect(await when({ allOf: [redOrPage, f('elements.count', 'nempty')] })).toEqual(['alpha', 'beta']);
    expect(
      await when({
        anyOf: [
          { allOf: [f('elements.tags', 'contains', ['red']), f('elements.count', 'gt', ['9'])] },
          { allOf: [f('system.type', 'eq', ['page']), { anyOf: [f('elements.count', 'empty')] }] },
        ],
      }),
    ).toEqual(['alpha', 'delta']);
    expect(
      await codenames({ filters: [f('elements.count', 'gte', ['9'])], conditions: [redOrPage], order: null }),
    ).toEqual(['alpha', 'beta']);
    expect(await codenames({ languages: ['es', 'en'], conditions: [redOrPage] })).toEqual(['beta', 'delta', 'gamma']);
    // paging applies to what the conditions keep
    expect(await codenames({ conditions: [redOrPage], skip: 1, limit: 1 })).toEqual(['beta']);
  });

  it('orders the ties of the first order by the next ones, then by codename', async () => {
    const es = { languages: ['es', 'en'] };
    // counts: alpha 10, beta 9, delta null, gamma 100; types: article alpha beta, page delta gamma
    const byTypeThenCount = (type: 'asc' | 'desc', count: 'asc' | 'desc') =>
      codenames({
        ...es,
        order: { property: 'system.type', direction: type },
        thenBy: [{ property: 'elements.count', direction: count }],
      });
    expect(await byTypeThenCount('asc', 'desc')).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    expect(await byTypeThenCount('desc', 'asc')).toEqual(['gamma', 'delta', 'beta', 'alpha']);
    expect(
      await codenames({
        ...es,
        order: { property: 'system.workflow_step', direction: 'asc' },
        thenBy: [
          { property: 'system.type', direction: 'desc' },
          { property: 'elements.title', direction: 'asc' },
        ],
      }),
    ).toEqual(['gamma', 'delta', 'alpha', 'beta']);
    // the first order by a value row, ties by a column
    expect(
      await codenames({
        filters: [f('elements.count', 'gte', ['9'])],
        conditions: [{ anyOf: [f('elements.tags', 'contains', ['red']), f('system.type', 'eq', ['page'])] }],
        order: { property: 'elements.count', direction: 'asc' },
        thenBy: [{ property: 'system.codename', direction: 'desc' }],
      }),
    ).toEqual(['beta', 'alpha']);
    // without a first order, thenBy is ignored: codename order
    expect(await codenames({ thenBy: [{ property: 'system.codename', direction: 'desc' }] })).toEqual([
      'alpha',
      'beta',
      'delta',
    ]);
  });
}
