import { describe, expect, it } from 'vitest';
import { parse, type ValueNode } from 'graphql';
import { buildProjectSchema } from '../schema/schema-cache.ts';
import { queryCost, selectOperation } from './query-cost.ts';
import { measureWhere, whereLimits } from './where-bounds.ts';

/** The `where` literal of `{ a(where: <text>) }`. */
function whereNode(text: string): ValueNode {
  const operation = parse(`{ a(where: ${text}) }`).definitions[0];
  if (operation?.kind !== 'OperationDefinition') throw new Error('no operation');
  const field = operation.selectionSet.selections[0];
  if (field?.kind !== 'Field') throw new Error('no field');
  return field.arguments![0]!.value;
}

const variable = whereNode('$w');

describe('where bounds (issue 33: AND / OR charged before the query runs)', () => {
  it('counts filters and AND / OR members, and the AND / OR nesting, in literals and variables', () => {
    expect(measureWhere(whereNode('{ title: { eq: "a" } }'), {})).toEqual({ conditions: 1, nesting: 0 });
    expect(
      measureWhere(whereNode('{ OR: [{ title: { eq: "a", in: ["b", "c"] } }, { AND: [{ n: { lt: 1 } }, $x] }] }'), {
        x: { n: { gt: 2 } },
      }),
    ).toEqual({ conditions: 8, nesting: 2 });
    expect(measureWhere(variable, { w: { OR: [{ a: { eq: 1 } }, { _system_: { codename: { eq: 'x' } } }] } })).toEqual({
      conditions: 4,
      nesting: 1,
    });
    // a single object where a list is expected is a list of one
    expect(measureWhere(variable, { w: { AND: { OR: { a: { eq: 1 } } } } })).toEqual({ conditions: 3, nesting: 2 });
  });

  it('stops past a limit, in linear time, on 100,000 levels or members', () => {
    let deep: unknown = { a: { eq: 1 } };
    for (let i = 0; i < 100_000; i += 1) deep = { OR: [deep] };
    const wide = { OR: Array.from({ length: 100_000 }, (_, i) => ({ a: { eq: i } })) };
    for (const w of [deep, wide]) {
      const started = performance.now();
      const m = measureWhere(variable, { w });
      expect(m.conditions > whereLimits.maxConditions || m.nesting > whereLimits.maxNesting).toBe(true);
      expect(performance.now() - started).toBeLessThan(50);
    }
  });

  it('adds up the where arguments of a request in its cost, each fragment spread counted', () => {
    const built = buildProjectSchema([{ system: { codename: 'article' }, elements: { n: { type: 'number' } } }], {
      defaultLimit: 10,
    });
    if (!built.isValid) throw new Error('invalid');
    const query = `{ a: article_All(where: { OR: [{ n: { lt: 1 } }, { n: { gt: 5 } }] }) { totalCount } ...F ...F }
      fragment F on _RootQuery { b: article_All(where: { AND: [{ n: { lt: 1 } }, { OR: [{ n: { gt: 5 } }, { n: { eq: 2 } }] }] }) { totalCount } }`;
    const document = parse(query);
    const operation = selectOperation(document, null)!;
    const cost = queryCost({ schema: built.schema, document, operation, variables: {}, maxPageSize: 20 });
    expect(cost.whereConditions).toBe(4 + 2 * 7);
    expect(cost.whereNesting).toBe(2);
  });
});
