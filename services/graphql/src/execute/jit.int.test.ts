import { afterAll, beforeAll, expect, it } from 'vitest';
import { print } from 'graphql';
import { sampleOperation } from '../testing/clients/sample-operations.ts';
import { listenGraphql, seedDemoContent, seedDemoModel, startStack, type Stack } from '../testing/graphql-stack.ts';

/*
 * graphql-jit compiles a query text once it has run `jitAfterHits` times: its answers must be the
 * graphql-js answers, data and errors alike.
 */

let stack: Stack;
const urls: Record<'interpreted' | 'compiled', string> = { interpreted: '', compiled: '' };
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stack = await startStack();
  await seedDemoModel(stack.core, stack.projectId);
  await seedDemoContent(stack);
  for (const [name, jitAfterHits] of [
    ['interpreted', 0],
    ['compiled', 1],
  ] as const) {
    // No response cache: every request runs the query.
    const listening = await listenGraphql(stack, { graphql: { jitAfterHits }, http: { cacheMaxEntries: 0 } });
    closers.push(() => listening.close());
    urls[name] = `${listening.url}/${stack.projectId}`;
  }
}, 120_000);
afterAll(async () => {
  for (const close of closers) await close();
  await stack.close();
});

async function answer(url: string, query: string, variables: Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  // graphql-jit words one message differently: a variable's coercion error also names the type.
  const text = (await res.text()).replace('; Expected type Int;', ';');
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

const cases: [string, Record<string, unknown>][] = [
  [print(sampleOperation('ArticleByCodename')), { codename: 'hello_world' }],
  [print(sampleOperation('ArticlesByTopic')), { topic: 'engineering', limit: 5 }],
  [print(sampleOperation('LongReads')), { minutes: 6 }],
  [print(sampleOperation('ArticlesWithAuthors')), {}],
  [print(sampleOperation('ArticleBody')), { codename: 'hello_world' }],
  [print(sampleOperation('ArticlesInLanguage')), { language: 'cs-CZ' }],
  ['{ article(codename: "hello_world") { authors(limit: 21) { items { __typename } } } }', {}],
  ['{ article_All(languageFilter: { languageCodename: "xx" }) { items { title } } }', {}],
  ['{ article_All(where: { readingTime: { gt: 1 }, title: { eq: "x" } }) { items { title } } }', {}],
  ['{ article { title } }', {}],
  ['query($n: Int) { article_All(limit: $n) { totalCount } }', { n: 'ten' }],
  ['{ article_All(offset: 1, limit: 1) { offset limit totalCount items { _seo { metaTitle } } } }', {}],
];

it('answers every sample query and query error as graphql-js does, run after run', async () => {
  for (const [query, variables] of cases) {
    const expected = await answer(urls.interpreted, query, variables);
    for (let run = 0; run < 2; run++) expect(await answer(urls.compiled, query, variables)).toEqual(expected);
  }
});
