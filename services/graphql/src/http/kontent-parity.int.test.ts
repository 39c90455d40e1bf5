/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are read deeply in assertions */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, startDemoGraphql, type Stack } from '../testing/graphql-stack.ts';

/*
 * Issue 33: what a client written against today's Kontent.ai GraphQL API expects, asked over plain
 * fetch (no code of ours on the client side). Expected shapes come from
 *  - [codegen] kontent-ai/kickstart-react-graphql-app@a102b9e8, src/graphql/graphql.ts (types
 *    generated from a live schema: `ArticleWhere` with `AND`/`OR: Array<ArticleWhere>`,
 *    `ArticleOrder`, `publishDate?: Maybe<DateTime>` deprecated beside
 *    `publishDate_with_timezone?: Maybe<DateAndTime>`),
 *    and, for restricted elements, `LandingPage.featuredContent: LandingPage_FeaturedContent_Collection`
 *    of `items: Array<LandingPageFeaturedContent>`, `LandingPageFeaturedContent = Article | Event`,
 *    `LandingPage.bodyCopy: LandingPage_BodyCopy` with `components:
 *    LandingPage_BodyCopy_Components_Collection` (`items: Array<Video>`) and `itemHyperlinks:
 *    ItemCollection`),
 *  - [learn] the Delivery GraphQL API reference, ../shared/reference/fixtures/delivery/
 *    Kontent-ai-Learn+learn-mcp-server/data/search-records.json ("Combine filters with AND and OR:
 *    Both operators take an array of at least two values and can be nested in one another").
 */

let url: string;
let strictUrl: string;
let compiledUrl: string;
let close: () => Promise<void>;
let stack: Stack;

/** A landing page type like the codegen's: linked items of two types, rich text of one. */
async function seedLandingPage(): Promise<void> {
  const mapi = (path: string, body?: unknown, method = 'POST') => stack.managementJson(path, { method, body });
  await mapi('/types', {
    name: 'Landing page',
    codename: 'landing_page',
    elements: [
      { name: 'Headline', codename: 'headline', type: 'text' },
      {
        name: 'Featured content',
        codename: 'featured_content',
        type: 'modular_content',
        allowed_content_types: [{ codename: 'article' }, { codename: 'author' }],
      },
      { name: 'Body copy', codename: 'body_copy', type: 'rich_text', allowed_content_types: [{ codename: 'author' }] },
    ],
  });
  const johnId = String((await mapi('/items/codename/john_roe', undefined, 'GET'))['id']);
  const componentId = '22222222-2222-4222-8222-222222222222';
  await mapi('/items', { name: 'Home', codename: 'home', type: { codename: 'landing_page' } });
  const elements = [
    { element: { codename: 'headline' }, value: 'Welcome' },
    { element: { codename: 'featured_content' }, value: [{ codename: 'hello_world' }, { codename: 'jane_doe' }] },
    {
      element: { codename: 'body_copy' },
      value:
        `<p>Meet <a data-item-id="${johnId}">John</a>.</p>` +
        `<object type="application/kenticocloud" data-type="item" data-id="${johnId}"></object>` +
        `<object type="application/kenticocloud" data-type="component" data-id="${componentId}"></object>`,
      components: [
        {
          id: componentId,
          type: { codename: 'author' },
          elements: [
            { element: { codename: 'name' }, value: 'Guest Writer' },
            { element: { codename: 'bio' }, value: '<p>Guest.</p>' },
          ],
        },
      ],
    },
  ];
  await mapi('/items/codename/home/variants/codename/default', { elements }, 'PUT');
  await mapi('/items/codename/home/variants/codename/default/publish', undefined, 'PUT');
  await stack.catchUp();
}

beforeAll(async () => {
  const demo = await startDemoGraphql(
    {},
    // SPEC 4.4's older contract (LECTERN_GRAPHQL_WHERE_COMBINED=false): one condition, one filter.
    { graphql: { isWhereCombined: false } },
    // graphql-jit from the first repeat, no response cache: every request runs the query.
    { graphql: { jitAfterHits: 1 }, http: { cacheMaxEntries: 0 } },
  );
  [url = '', strictUrl = '', compiledUrl = ''] = demo.urls;
  stack = demo.stack;
  close = () => demo.close();
  await seedLandingPage();
}, 120_000);
afterAll(() => close());

interface Answer {
  status: number;
  body: { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };
}

const post = (query: string, variables?: Record<string, unknown>, target = url): Promise<Answer> =>
  postGraphql<Answer['body']>(target, query, variables);

const codenames = (a: Answer) =>
  (a.body.data?.['article_All']?.items as { _system_: { codename: string } }[] | undefined)?.map(
    (i) => i._system_.codename,
  );

/** The codenames `article_All(<args>)` lists, asserting no error. */
async function list(args: string, variables?: Record<string, unknown>, target = url, head = '') {
  const a = await post(`${head}{ article_All${args} { items { _system_ { codename } } } }`, variables, target);
  expect(a.body.errors, JSON.stringify(a.body.errors)).toBeUndefined();
  return codenames(a);
}

// Demo articles: hello_world (reading time 5, topic engineering, authors jane_doe and john_roe),
// design_basics (8, design, no authors), pricing_notes (12, pricing, john_roe).

describe('the schema, as a client generated from Kontent.ai expects it', () => {
  it('gives a date and time element a DateTime field under its own name beside <name>_with_timezone [codegen]', async () => {
    const a = await post(`{ __type(name: "Article") { fields(includeDeprecated: true) {
      name isDeprecated deprecationReason type { kind name } } } }`);
    const fields = a.body.data?.['__type'].fields as any[];
    expect(fields.find((f) => f.name === 'publishedOn')).toEqual({
      name: 'publishedOn',
      isDeprecated: true,
      deprecationReason: "Use 'publishedOn_with_timezone' instead.",
      type: { kind: 'SCALAR', name: 'DateTime' },
    });
    // `publishDate_with_timezone?: Maybe<DateAndTime>`: nullable.
    expect(fields.find((f) => f.name === 'publishedOn_with_timezone').type).toEqual({
      kind: 'OBJECT',
      name: '_DateAndTime',
    });
    const item = await post(`{ article(codename: "hello_world") {
      publishedOn publishedOn_with_timezone { value display_timezone } } }`);
    expect(item.body.data?.['article']).toEqual({
      publishedOn: '2026-03-01T10:00:00Z',
      publishedOn_with_timezone: { value: '2026-03-01T10:00:00Z', display_timezone: 'Europe/Prague' },
    });
  });

  it('takes AND and OR as lists of the type’s own where input [codegen]', async () => {
    const a = await post(
      `{ __type(name: "Article_Where") { inputFields { name type { kind ofType { kind name } } } } }`,
    );
    const fields = a.body.data?.['__type'].inputFields as any[];
    for (const name of ['AND', 'OR']) {
      expect(fields.find((f) => f.name === name).type).toEqual({
        kind: 'LIST',
        ofType: { kind: 'NON_NULL', name: null },
      });
    }
    const inner = await post(
      `{ __type(name: "Article_Where") { inputFields { name type { ofType { ofType { name } } } } } }`,
    );
    const and = (inner.body.data?.['__type'].inputFields as any[]).find((f) => f.name === 'AND');
    expect(and.type.ofType.ofType.name).toBe('Article_Where');
  });
});

describe('where with AND and OR (today’s Kontent.ai, the default)', () => {
  it('matches either branch of an OR, and nests AND and OR [learn]', async () => {
    expect(await list('(where: { OR: [{ title: { eq: "Pricing notes" } }, { readingTime: { lt: 6 } }] })')).toEqual([
      'hello_world',
      'pricing_notes',
    ]);
    const nested = `(where: { AND: [
      { OR: [{ topics: { containsAny: ["design"] } }, { authors: { containsAny: ["john_roe"] } }] },
      { readingTime: { gte: 8 } }
    ] })`;
    expect(await list(nested)).toEqual(['design_basics', 'pricing_notes']);
    const viaVariable = await list(
      '(where: $where)',
      { where: { OR: [{ _system_: { codename: { eq: 'design_basics' } } }, { authors: { isEmpty: false } }] } },
      url,
      'query($where: Article_Where) ',
    );
    expect(viaVariable).toEqual(['design_basics', 'hello_world', 'pricing_notes']);
  });

  it('refuses an AND or OR of fewer than two conditions [learn: "an array of at least two values"]', async () => {
    for (const where of ['{ OR: [{ readingTime: { lt: 6 } }] }', '{ AND: [] }']) {
      const a = await post(`{ article_All(where: ${where}) { items { title } } }`, undefined, url);
      expect(a.status).toBe(200);
      expect(a.body.errors?.[0]).toMatchObject({
        message: expect.stringContaining('at least two conditions'),
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
  });

  it('keeps SPEC 4.4 rule 3 when set to: an OR of two filters is two conditions', async () => {
    const a = await post(
      '{ article_All(where: { OR: [{ readingTime: { lt: 6 } }, { readingTime: { gt: 9 } }] }) { items { title } } }',
      undefined,
      strictUrl,
    );
    expect(a.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('one condition with one filter'),
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('refuses deep or wide AND / OR before reading anything, quickly, as QUERY_TOO_COMPLEX', async () => {
    let deep = '{ readingTime: { lt: 6 } }';
    for (let i = 0; i < 6; i += 1) deep = `{ OR: [${deep}, { readingTime: { gt: 9 } }] }`;
    const wide = `{ OR: [${Array.from({ length: 51 }, (_, i) => `{ readingTime: { eq: ${i} } }`).join(', ')}] }`;
    let veryDeep: unknown = { readingTime: { lt: 6 } };
    // 40 levels: a JSON body nested deeper than 128 is refused before parsing (400, http-kit).
    for (let i = 0; i < 40; i += 1) veryDeep = { OR: [veryDeep] };
    const cases: [string, Record<string, unknown> | undefined][] = [
      [`{ article_All(where: ${deep}) { items { title } } }`, undefined],
      [`{ article_All(where: ${wide}) { items { title } } }`, undefined],
      ['query($w: Article_Where) { article_All(where: $w) { items { title } } }', { w: veryDeep }],
    ];
    for (const [query, variables] of cases) {
      const started = performance.now();
      const a = await post(query, variables, url);
      expect(a.status).toBe(200);
      expect(a.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    // five levels are within the bound and answer
    let five = '{ readingTime: { lt: 6 } }';
    for (let i = 0; i < 5; i += 1) five = `{ OR: [${five}, { readingTime: { gt: 9 } }] }`;
    expect(await list(`(where: ${five})`)).toEqual(['hello_world', 'pricing_notes']);
  });
});

describe('order by several fields [codegen: ArticleOrder]', () => {
  it('orders by the first field written, its ties by the next, in a literal and in a variable', async () => {
    // Article_Order lists title before readingTime: the written order, not the schema's, decides.
    expect(await list('(order: { readingTime: asc, title: desc })', undefined, url)).toEqual([
      'hello_world',
      'design_basics',
      'pricing_notes',
    ]);
    expect(await list('(order: { title: desc, readingTime: asc })', undefined, url)).toEqual([
      'pricing_notes',
      'hello_world',
      'design_basics',
    ]);
    const head = 'query($order: Article_Order) ';
    expect(await list('(order: $order)', { order: { readingTime: 'desc', title: 'asc' } }, url, head)).toEqual([
      'pricing_notes',
      'design_basics',
      'hello_world',
    ]);
    expect(
      await list(
        '(order: { _system_: { lastModified: desc }, publishedOn_with_timezone: { value: asc } })',
        undefined,
        url,
      ),
    ).toHaveLength(3);
    const six = '{ title: asc, summary: asc, slug: asc, readingTime: asc, publishedOn: asc, _system_: { name: asc } }';
    const refused = await post(`{ article_All(order: ${six}) { items { title } } }`);
    expect(refused.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('at most 5 fields'),
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe('restricted linked items and rich text [codegen: LandingPage_FeaturedContent_Collection]', () => {
  const typeOf = async (name: string) => {
    const a = await post(`{ __type(name: "${name}") { kind name possibleTypes { name }
      fields { name type { kind ofType { name kind ofType { kind ofType { name } } } } } } }`);
    expect(a.body.errors, JSON.stringify(a.body.errors)).toBeUndefined();
    return a.body.data?.['__type'] as any;
  };
  const fieldType = (t: any, name: string) => t.fields.find((f: any) => f.name === name).type;

  it('shows the collections, the union and its members through introspection', async () => {
    const page = await typeOf('LandingPage');
    expect(fieldType(page, 'featuredContent').ofType).toEqual({
      name: 'LandingPage_FeaturedContent_Collection',
      kind: 'OBJECT',
      ofType: null,
    });
    expect(fieldType(page, 'bodyCopy').ofType.name).toBe('LandingPage_BodyCopy');
    const collection = await typeOf('LandingPage_FeaturedContent_Collection');
    // `items: Array<LandingPageFeaturedContent>`: [LandingPage_FeaturedContent!]!
    expect(fieldType(collection, 'items').ofType.ofType.ofType.name).toBe('LandingPage_FeaturedContent');
    const union = await typeOf('LandingPage_FeaturedContent');
    expect(union.kind).toBe('UNION');
    expect(union.possibleTypes.map((t: any) => t.name).sort()).toEqual(['Article', 'Author']);
    const body = await typeOf('LandingPage_BodyCopy');
    expect(Object.fromEntries(body.fields.map((f: any) => [f.name, f.type.ofType.name]))).toEqual({
      html: 'String',
      assets: '_RichTextAssetCollection',
      components: 'LandingPage_BodyCopy_Components_Collection',
      linkedItems: 'LandingPage_BodyCopy_LinkedItems_Collection',
      itemHyperlinks: '_ItemCollection',
    });
    // One allowed type: the items are that type, no union (`items: Array<Video>`).
    const components = await typeOf('LandingPage_BodyCopy_Components_Collection');
    expect(fieldType(components, 'items').ofType.ofType.ofType.name).toBe('Author');
    expect(await typeOf('LandingPage_BodyCopy_Components')).toBeNull();
    const authors = await typeOf('Article_Authors_Collection');
    expect(fieldType(authors, 'items').ofType.ofType.ofType.name).toBe('Author');
  });

  it('answers fragments on the allowed types and each item’s __typename', async () => {
    const query = `{ landingPage(codename: "home") {
      featuredContent { __typename totalCount items { __typename ... on Article { title } ... on Author { name } } }
      bodyCopy { __typename
        components { __typename items { __typename name } }
        linkedItems { items { ... on Author { name } } }
        itemHyperlinks { items { __typename } } } } }`;
    const a = await post(query);
    expect(a.body.errors, JSON.stringify(a.body.errors)).toBeUndefined();
    // graphql-jit, once compiled, resolves the union members alike.
    for (let run = 0; run < 3; run += 1) expect((await post(query, undefined, compiledUrl)).body).toEqual(a.body);
    expect(a.body.data?.['landingPage']).toEqual({
      featuredContent: {
        __typename: 'LandingPage_FeaturedContent_Collection',
        totalCount: 2,
        items: [
          { __typename: 'Article', title: 'Hello world' },
          { __typename: 'Author', name: 'Jane Doe' },
        ],
      },
      bodyCopy: {
        __typename: 'LandingPage_BodyCopy',
        components: {
          __typename: 'LandingPage_BodyCopy_Components_Collection',
          items: [{ __typename: 'Author', name: 'Guest Writer' }],
        },
        linkedItems: { items: [{ name: 'John Roe' }] },
        itemHyperlinks: { items: [{ __typename: 'Author' }] },
      },
    });
    const authors = await post('{ article(codename: "hello_world") { authors { __typename items { name } } } }');
    expect(authors.body.data?.['article']).toEqual({
      authors: { __typename: 'Article_Authors_Collection', items: [{ name: 'Jane Doe' }, { name: 'John Roe' }] },
    });
  });

  it('refuses a field of a member asked on the union without a fragment, as GraphQL does', async () => {
    const a = await post('{ landingPage(codename: "home") { featuredContent { items { title } } } }');
    expect(a.status).toBe(200);
    expect(a.body.errors?.[0]?.message).toContain('Cannot query field "title" on type "LandingPage_FeaturedContent"');
  });

  it('leaves out a linked item whose type the element no longer allows', async () => {
    await stack.managementJson('/types/codename/landing_page', {
      method: 'PATCH',
      body: [
        {
          op: 'replace',
          path: '/elements/codename:featured_content/allowed_content_types',
          value: [{ codename: 'author' }],
        },
      ],
    });
    await stack.catchUp();
    const a = await post(`{ landingPage(codename: "home") {
      featuredContent { totalCount items { __typename name } } } }`);
    expect(a.body.errors, JSON.stringify(a.body.errors)).toBeUndefined();
    expect(a.body.data?.['landingPage'].featuredContent).toEqual({
      totalCount: 1,
      items: [{ __typename: 'Author', name: 'Jane Doe' }],
    });
  });
});
