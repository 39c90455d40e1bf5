import { describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { buildProjectSchema } from '../schema/schema-cache.ts';
import { queryCost, selectOperation } from './query-cost.ts';

const types = [
  {
    system: { codename: 'article', name: 'Article' },
    elements: {
      title: { type: 'text' },
      related: { type: 'modular_content' },
      body: { type: 'rich_text' },
    },
  },
];
const built = buildProjectSchema(types, { defaultLimit: 10 });
if (!built.isValid) throw new Error('invalid');
const schema = built.schema;

function cost(query: string, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  const operation = selectOperation(document, null);
  if (operation === null) throw new Error('no operation');
  return queryCost({ schema, document, operation, variables });
}

describe('query complexity and depth (SPEC 8)', () => {
  it('counts 20 items with up to 10 linked items each as 220', () => {
    expect(
      cost('{ article_All(limit: 20) { items { related { items { _system_ { codename } } } } } }').complexity,
    ).toBe(220);
  });

  it('uses the default limit of 10, variables, fragments and rich text components', () => {
    expect(cost('{ article_All { items { title } } }').complexity).toBe(10);
    expect(cost('query($n: Int) { article_All(limit: $n) { items { title } } }', { n: 3 }).complexity).toBe(3);
    const q = `{ article(codename: "a") { ...F } }
      fragment F on Article { body { components(limit: 5) { items { __typename } } linkedItems { items { __typename } } } }`;
    expect(cost(q).complexity).toBe(1 + 5 + 10);
  });

  it('counts nothing for a collection whose items are not selected', () => {
    expect(cost('{ article_All(limit: 20) { totalCount } }').complexity).toBe(0);
  });

  it('sums the root queries depths, root fields at level 0', () => {
    expect(cost('{ article_All { items { title } } }').depth).toBe(2);
    expect(
      cost('{ a: article_All { items { title } } b: article(codename: "x") { _system_ { codename } } }').depth,
    ).toBe(4);
  });

  it('measures a query that spreads fragments exponentially without walking every path', () => {
    const levels = 30;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Article { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'title'} }`,
    );
    const q = `{ article_All { items { ...F0 } } } ${fragments.join(' ')}`;
    expect(cost(q)).toEqual({ complexity: 10, depth: 2 });
  });
});
