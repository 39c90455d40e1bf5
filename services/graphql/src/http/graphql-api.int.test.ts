/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are read deeply in assertions */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, updateProject } from '@lectern/core';
import { listenGraphql, seedDemoContent, seedDemoModel, startStack, type Stack } from '../testing/graphql-stack.ts';

let stack: Stack;
let base: string;
let url: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stack = await startStack();
  await seedDemoModel(stack.core, stack.projectId);
  await seedDemoContent(stack);
  const listening = await listenGraphql(stack);
  closers.push(() => listening.close());
  base = listening.url;
  url = `${base}/${stack.projectId}`;
}, 120_000);
afterAll(async () => {
  for (const close of closers) await close();
  await stack.close();
});

interface Answer {
  status: number;
  headers: Headers;
  body: { data?: Record<string, any>; errors?: { message: string; extensions?: { code?: string } }[] } & Record<
    string,
    unknown
  >;
}

async function post(query: string, variables?: Record<string, unknown>, target = url): Promise<Answer> {
  const res = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

async function get(query: string, target = url, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${target}?query=${encodeURIComponent(query)}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

const codenames = (a: Answer, root = 'article_All') =>
  (a.body.data?.[root]?.items as { _system_: { codename: string } }[] | undefined)?.map((i) => i._system_.codename);

const list = async (args: string) => {
  const a = await post(`{ article_All${args} { totalCount items { _system_ { codename } } } }`);
  expect(a.body.errors).toBeUndefined();
  return codenames(a);
};

describe('root queries (SPEC 4.4)', () => {
  it('reads one item by codename and by id, and null for an unknown one', async () => {
    const one = await post(
      '{ article(codename: "hello_world") { _system_ { id name type { _system_ { codename name } } } title } }',
    );
    expect(one.status).toBe(200);
    expect(one.body.data?.['article']).toMatchObject({
      title: 'Hello world',
      _system_: { name: 'hello_world', type: { _system_: { codename: 'article', name: 'Article' } } },
    });
    const id = one.body.data?.['article']._system_.id as string;
    const byId = await post('query($id: Guid) { article(id: $id) { title } }', { id });
    expect(byId.body.data?.['article']).toEqual({ title: 'Hello world' });
    expect((await post('{ article(codename: "nope") { title } }')).body.data).toEqual({ article: null });
    expect((await post('{ author(codename: "hello_world") { name } }')).body.data).toEqual({ author: null });
  });

  it('lists by codename by default, with paging and totalCount', async () => {
    expect(await list('')).toEqual(['design_basics', 'hello_world', 'pricing_notes']);
    const page = await post('{ article_All(offset: 1, limit: 1) { offset limit totalCount items { title } } }');
    expect(page.body.data?.['article_All']).toEqual({
      offset: 1,
      limit: 1,
      totalCount: 3,
      items: [{ title: 'Hello world' }],
    });
  });

  it('orders by an element, a date and a system field', async () => {
    expect(await list('(order: { readingTime: desc })')).toEqual(['pricing_notes', 'design_basics', 'hello_world']);
    expect(await list('(order: { publishedOn_with_timezone: { value: asc } })')).toEqual([
      'design_basics',
      'hello_world',
      'pricing_notes',
    ]);
    expect(await list('(order: { _system_: { name: desc } })')).toEqual([
      'pricing_notes',
      'hello_world',
      'design_basics',
    ]);
    // Several fields (issue 33): the first written decides, the next ones break its ties.
    expect(await list('(order: { title: desc, readingTime: asc })')).toEqual([
      'pricing_notes',
      'hello_world',
      'design_basics',
    ]);
  });

  it('filters with every operator of SPEC 4.4 rule 4', async () => {
    expect(await list('(where: { title: { eq: "Pricing notes" } })')).toEqual(['pricing_notes']);
    expect(await list('(where: { title: { notEq: "Pricing notes" } })')).toEqual(['design_basics', 'hello_world']);
    expect(await list('(where: { title: { in: ["Hello world", "Design basics"] } })')).toEqual([
      'design_basics',
      'hello_world',
    ]);
    expect(await list('(where: { slug: { notIn: ["hello-world"] } })')).toEqual(['design_basics', 'pricing_notes']);
    expect(await list('(where: { readingTime: { lt: 8 } })')).toEqual(['hello_world']);
    expect(await list('(where: { readingTime: { lte: 8 } })')).toEqual(['design_basics', 'hello_world']);
    expect(await list('(where: { readingTime: { gt: 8 } })')).toEqual(['pricing_notes']);
    expect(await list('(where: { readingTime: { gte: 8 } })')).toEqual(['design_basics', 'pricing_notes']);
    expect(await list('(where: { readingTime: { in: [5, 12] } })')).toEqual(['hello_world', 'pricing_notes']);
    expect(await list('(where: { publishedOn: { gt: "2026-03-15T00:00:00Z" } })')).toEqual(['pricing_notes']);
    expect(await list('(where: { publishedOn_with_timezone: { value: { lt: "2026-02-15T00:00:00Z" } } })')).toEqual([
      'design_basics',
    ]);
    expect(await list('(where: { authors: { isEmpty: true } })')).toEqual(['design_basics']);
    expect(await list('(where: { authors: { isEmpty: false } })')).toEqual(['hello_world', 'pricing_notes']);
    expect(await list('(where: { authors: { containsAny: ["jane_doe"] } })')).toEqual(['hello_world']);
    expect(await list('(where: { authors: { containsAll: ["jane_doe", "john_roe"] } })')).toEqual(['hello_world']);
    expect(await list('(where: { topics: { containsAny: ["pricing", "design"] } })')).toEqual([
      'design_basics',
      'pricing_notes',
    ]);
    expect(await list('(where: { _seo: { metaTitle: { eq: "Design basics | Demo" } } })')).toEqual(['design_basics']);
    expect(await list('(where: { _system_: { collection: { eq: "default" } } })')).toHaveLength(3);
    expect(await list('(where: { _system_: { workflowStep: { eq: "published" } } })')).toHaveLength(3);
    expect(await list('(where: { _system_: { name: { eq: "pricing_notes" } } })')).toEqual(['pricing_notes']);
    expect(await list('(where: { _system_: { lastModified: { lt: "2000-01-01T00:00:00Z" } } })')).toEqual([]);
  });

  it("combines conditions as today's Kontent.ai, and holds one with one filter when set to SPEC 4.4", async () => {
    const where = '(where: { readingTime: { gt: 1 }, title: { eq: "Hello world" } })';
    const answer = await post(`{ article_All${where} { items { title } } }`);
    expect(answer.body.data?.['article_All'].items).toEqual([{ title: 'Hello world' }]);
    const strict = await listenGraphql(stack, { graphql: { isWhereCombined: false } });
    closers.push(() => strict.close());
    const refused = await post(
      `{ article_All${where} { items { title } } }`,
      undefined,
      `${strict.url}/${stack.projectId}`,
    );
    expect(refused.status).toBe(200);
    expect(refused.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('one condition with one filter'),
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('applies language fallbacks as REST does, and turns them off for a language filter', async () => {
    const q = (args: string) => `{ article_All(languageFilter: { languageCodename: "cs-CZ" }${args}) {
      items { title _system_ { codename language { _system_ { codename name } } } } } }`;
    const all = await post(q(''));
    expect(
      all.body.data?.['article_All'].items.map((i: any) => [
        i._system_.codename,
        i._system_.language._system_.codename,
        i.title,
      ]),
    ).toEqual([
      ['design_basics', 'default', 'Design basics'],
      ['hello_world', 'cs-CZ', 'Ahoj světe'],
      ['pricing_notes', 'default', 'Pricing notes'],
    ]);
    expect(all.body.data?.['article_All'].items[1]._system_.language._system_.name).toBe('Czech');
    const only = await post(q(', where: { _system_: { language: { _system_: { codename: { eq: "cs-CZ" } } } } }'));
    expect(only.body.data?.['article_All'].items.map((i: any) => i._system_.codename)).toEqual(['hello_world']);
    const one = await post(
      '{ article(codename: "pricing_notes", languageFilter: { languageCodename: "cs-CZ" }) { title } }',
    );
    expect(one.body.data?.['article']).toEqual({ title: 'Pricing notes' });
    const unknown = await post('{ article_All(languageFilter: { languageCodename: "xx" }) { items { title } } }');
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('pages nested collections with offset and limit (SPEC 4.4 rule 7), batched through the index', async () => {
    const a = await post(`{ article(codename: "hello_world") {
      authors(offset: 1, limit: 1) { offset limit totalCount items { ... on Author { name } } }
      topics { items { _system_ { codename name } } } } }`);
    expect(a.body.data?.['article']).toEqual({
      authors: { offset: 1, limit: 1, totalCount: 2, items: [{ name: 'John Roe' }] },
      topics: { items: [{ _system_: { codename: 'engineering', name: 'Engineering' } }] },
    });
    const over = await post('{ article(codename: "hello_world") { authors(limit: 21) { items { __typename } } } }');
    expect(over.body.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      path: ['article', 'authors'],
    });
  });
});

describe('requests and errors (SPEC 4.4, 7.4)', () => {
  it('takes the query by GET, by POST as JSON and as application/graphql, with the same answer', async () => {
    const query = '{ article(codename: "design_basics") { title } }';
    const expected = { data: { article: { title: 'Design basics' } } };
    expect((await get(query)).body).toEqual(expected);
    expect((await post(query)).body).toEqual(expected);
    const raw = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/graphql' }, body: query });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual(expected);
  });

  it('serves a repeated query from the response cache until the content changes', async () => {
    const query = '{ article(codename: "design_basics") { readingTime } }';
    const first = await get(query);
    const again = await get(query);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.body).toEqual(first.body);
    await stack.managementJson('/items/codename/design_basics/variants/codename/default/new-version', {
      method: 'PUT',
    });
    await stack.managementJson('/items/codename/design_basics/variants/codename/default', {
      method: 'PUT',
      body: { elements: [{ element: { codename: 'reading_time' }, value: 9 }] },
    });
    await stack.managementJson('/items/codename/design_basics/variants/codename/default/publish', { method: 'PUT' });
    await stack.catchUp();
    const fresh = await fetch(`${url}?query=${encodeURIComponent(query)}`, {
      headers: { 'x-kc-wait-for-loading-new-content': 'true' },
    });
    expect(await fresh.json()).toEqual({ data: { article: { readingTime: 9 } } });
  });

  it('answers query errors with HTTP 200 and an extensions code', async () => {
    const syntax = await post('{ article_All { items { title } }');
    expect(syntax.status).toBe(200);
    expect(syntax.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const unknown = await post('{ article_All { items { nope } } }');
    expect(unknown.status).toBe(200);
    expect(unknown.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('nope'),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const mutation = await post('mutation { x }');
    expect(mutation.status).toBe(200);
    expect(mutation.body.errors?.length).toBeGreaterThan(0);
    const noArgs = await post('{ article { title } }');
    expect(noArgs.body).toMatchObject({
      data: { article: null },
      errors: [{ extensions: { code: 'BAD_USER_INPUT' } }],
    });
    const badVariable = await post('query($n: Int) { article_All(limit: $n) { totalCount } }', { n: 'ten' });
    expect(badVariable.status).toBe(200);
    expect(badVariable.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuses requests that hold no usable query with a 4xx in the Delivery error shape', async () => {
    const shape = { message: expect.any(String), request_id: expect.any(String), error_code: expect.any(Number) };
    const noQuery = await fetch(url);
    expect(noQuery.status).toBe(400);
    expect(await noQuery.json()).toMatchObject(shape);
    const badJson = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":',
    });
    expect(badJson.status).toBe(400);
    const notObject = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[1]',
    });
    expect(notObject.status).toBe(400);
    const variables = await fetch(`${url}?query=${encodeURIComponent('{ __typename }')}&variables=%7B`);
    expect(variables.status).toBe(400);
    const xml = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<q/>' });
    expect(xml.status).toBe(415);
    expect(await xml.json()).toMatchObject(shape);
  });

  it('answers 404 for an unknown project', async () => {
    const unknown = await post('{ __typename }', undefined, `${base}/00000000-0000-4000-8000-0000000000aa`);
    expect(unknown.status).toBe(404);
    expect(unknown.body['error_code']).toBe(104);
    expect((await get('{ __typename }', `${base}/not-a-project`)).status).toBe(404);
  });
});

describe('limits before execution (SPEC 8)', () => {
  it('refuses a query over complexity 500 with QUERY_TOO_COMPLEX and reports X-Complexity', async () => {
    const ok = await post('{ article_All(limit: 20) { items { authors { items { __typename } } } } }');
    expect(ok.headers.get('x-complexity')).toBe('220');
    expect(ok.body.errors).toBeUndefined();
    const heavy = await post(
      '{ article_All(limit: 20) { items { authors(limit: 20) { items { ... on Author { name } } } } } }',
    );
    expect(heavy.status).toBe(200);
    expect(heavy.headers.get('x-complexity')).toBe('420');
    const roots =
      '{ a: article_All(limit: 20) { items { authors(limit: 20) { items { __typename } } } } b: article_All(limit: 20) { items { title } } c: article_All(limit: 20) { items { title } } d: article_All(limit: 20) { items { title } } e: article_All(limit: 20) { items { title } }';
    const atLimit = await post(`${roots} }`);
    expect(atLimit.headers.get('x-complexity')).toBe('500');
    expect(atLimit.body.errors).toBeUndefined();
    const tooMuch = await post(`${roots} f: article(codename: "hello_world") { title } }`);
    expect(tooMuch.status).toBe(200);
    expect(tooMuch.headers.get('x-complexity')).toBe('501');
    expect(tooMuch.body.data).toBeUndefined();
    expect(tooMuch.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('501'),
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  });

  it('refuses a total depth over 124 with QUERY_TOO_DEEP', async () => {
    const roots = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: article(codename: "x") { _system_ { codename } }`).join(' ')} }`;
    expect((await post(roots(62))).body.errors).toBeUndefined();
    const deep = await post(roots(63));
    expect(deep.status).toBe(200);
    expect(deep.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('126'),
      extensions: { code: 'QUERY_TOO_DEEP' },
    });
  });

  it('refuses a POST body over 8 kB (413) and a GET URL over 2,000 characters (400)', async () => {
    const padding = ' '.repeat(8_200);
    const big = await post(`{ __typename ${padding}}`);
    expect(big.status).toBe(413);
    expect(big.body['error_code']).toBeGreaterThan(0);
    const long = await get(`{ __typename ${'#'.repeat(2_000)}\n}`);
    expect(long.status).toBe(400);
    expect(long.body['message']).toContain('2000');
  });
});

describe('rate limit by resource consumption (SPEC 8)', () => {
  it('spends a unit per request and per item read, answers 429 with Retry-After past the budget, and never limits cached answers', async () => {
    const limited = await listenGraphql(stack, { graphql: { unitsPerSecond: 0, unitsPerMinute: 6 } });
    closers.push(() => limited.close());
    const target = `${limited.url}/${stack.projectId}`;
    // Fixed minute windows: start a fresh one when this one is about to end.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
    const first = await get('{ article_All { items { title } } }', target);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-charge')).toBe('3');
    expect((await get('{ article_All { items { summary } } }', target)).status).toBe(200);
    const refused = await get('{ article_All { items { slug } } }', target);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body['error_code']).toBe(10000);
    const cached = await get('{ article_All { items { title } } }', target);
    expect(cached.status).toBe(200);
    expect(cached.headers.get('x-cache')).toBe('HIT');
  });
});

describe('access (SPEC 5)', () => {
  it('is unavailable for a project with secure access on, unless a setting accepts delivery keys', async () => {
    const keyed = await listenGraphql(stack, { graphql: { isSecureAccessKeyAllowed: true } });
    closers.push(() => keyed.close());
    await updateProject(stack.core, { actor: operator, projectId: stack.projectId, isSecureAccess: true });
    try {
      const refused = await get('{ __typename }', url, { authorization: `Bearer ${stack.deliveryKey}` });
      expect(refused.status).toBe(403);
      expect(refused.body['message']).toContain('secure access');
      expect((await get('{ __typename }')).status).toBe(403);
      const other = `${keyed.url}/${stack.projectId}`;
      expect((await get('{ __typename }', other)).status).toBe(401);
      const served = await get('{ __typename }', other, { authorization: `Bearer ${stack.deliveryKey}` });
      expect(served.body).toEqual({ data: { __typename: '_RootQuery' } });
    } finally {
      await updateProject(stack.core, { actor: operator, projectId: stack.projectId, isSecureAccess: false });
    }
  });
});

describe('a content model without a schema (SPEC 2.8)', () => {
  it('answers every query with an error naming both colliding codenames, and serves again once fixed', async () => {
    const mapi = (path: string, body?: unknown, method = 'POST') => stack.managementJson(path, { method, body });
    await mapi('/types', { name: 'X one', codename: 'x_1', elements: [{ name: 'A', codename: 'a', type: 'text' }] });
    await mapi('/types', { name: 'X1', codename: 'x1', elements: [{ name: 'A', codename: 'a', type: 'text' }] });
    await stack.catchUp();
    const broken = await fetch(`${url}?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { 'x-kc-wait-for-loading-new-content': 'true' },
    });
    expect(broken.status).toBe(200);
    const body = (await broken.json()) as Answer['body'];
    expect(body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(
        /content type 'x1' and the content type 'x_1' both give the GraphQL type name 'X1'/,
      ),
      extensions: { code: 'SCHEMA_INVALID' },
    });
    await mapi('/types/codename/x1', undefined, 'DELETE');
    await stack.catchUp();
    const fixed = await fetch(`${url}?query=${encodeURIComponent('{ x1_All { totalCount } }')}`, {
      headers: { 'x-kc-wait-for-loading-new-content': 'true' },
    });
    expect(await fixed.json()).toEqual({ data: { x1_All: { totalCount: 0 } } });
  });
});
