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
  return queryCost({ schema, document, operation, variables, maxPageSize: 20 });
}

/** A collection of linked items nested `levels` deep under a list of articles. */
function nestedQuery(levels: number): string {
  let inner = 'title';
  for (let i = 0; i < levels; i += 1) inner = `related { items { ... on Article { ${inner} } } }`;
  return `{ article_All { items { ${inner} } } }`;
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

  it('measures a query that spreads fragments exponentially without walking every path', () => {
    const levels = 30;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Article { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'title'} }`,
    );
    const q = `{ article_All { items { ...F0 } } } ${fragments.join(' ')}`;
    expect(cost(q).complexity).toBe(10);
  });

  it('measures 66 levels of linked items at once (issue 27: the walk doubled per level)', () => {
    // 10 + 10² + … + 10⁶⁷: far over any limit, and answered without walking each path.
    expect(cost(nestedQuery(66)).complexity).toBeGreaterThan(1e60);
    expect(cost(nestedQuery(2)).complexity).toBe(10 + 100 + 1000);
  });

  it("counts a variable's declared default as execution uses it (issue 27: it counted 10)", () => {
    const literal = cost('{ article_All(limit: 20) { items { related(limit: 20) { items { __typename } } } } }');
    const byDefault = cost(
      'query($l: Int = 20) { article_All(limit: $l) { items { related(limit: $l) { items { __typename } } } } }',
    );
    expect(byDefault.complexity).toBe(literal.complexity);
    expect(byDefault.complexity).toBe(420);
    const given = 'query($l: Int = 20) { article_All(limit: $l) { items { title } } }';
    expect(cost(given, { l: 3 }).complexity).toBe(3);
    // No value and no default: the argument's own default, as execution does.
    expect(cost('query($l: Int) { article_All(limit: $l) { items { title } } }').complexity).toBe(10);
  });

  it('counts a variable that does not coerce as the page size maximum', () => {
    expect(cost('query($l: Int) { article_All(limit: $l) { items { title } } }', { l: 'many' }).complexity).toBe(20);
  });

  it('counts the field values of the answer, each collection item as often as its limit allows', () => {
    expect(cost('{ article_All(limit: 20) { totalCount items { title } } }').values).toBe(1 + 1 + 1 + 20);
    const aliases = Array.from({ length: 600 }, (_, i) => `a${i}: title`).join(' ');
    const wide = cost(
      `{ article_All(limit: 20) { items { related(limit: 20) { items { ... on Article { ${aliases} } } } } } }`,
    );
    expect(wide.complexity).toBe(420);
    expect(wide.values).toBe(2 + 20 * (2 + 20 * 600));
  });

  it('counts each aliased items selection of one collection', () => {
    expect(cost('{ article_All(limit: 5) { a: items { title } b: items { title } } }').complexity).toBe(10);
  });
});
