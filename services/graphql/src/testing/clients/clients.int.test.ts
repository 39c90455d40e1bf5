import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, fetchExchange } from '@urql/core';
import { listenGraphql, seedDemoContent, seedDemoModel, startStack, type Stack } from '../graphql-stack.ts';
import { committedText, generatedPaths, generatedSampleTypes, introspectedSdl } from './generated-files.ts';
import { sampleOperation } from './sample-operations.ts';
import type {
  ArticleBodyQuery,
  ArticleBodyQueryVariables,
  ArticleByCodenameQuery,
  ArticleByCodenameQueryVariables,
  ArticlesByTopicQuery,
  ArticlesByTopicQueryVariables,
  ArticlesInLanguageQuery,
  ArticlesInLanguageQueryVariables,
  ArticlesWithAuthorsQuery,
  ArticlesWithAuthorsQueryVariables,
  LongReadsQuery,
  LongReadsQueryVariables,
} from './sample-queries.generated.ts';

/*
 * The GraphQL API through real clients, in the embedded shape (one process, PGlite, the indexer
 * beside it): urql core runs typed queries modelled on Kontent.ai's samples; GraphQL Code
 * Generator builds the TypeScript types of those queries from the running endpoint by
 * introspection; the demo project's SDL is committed and checked for drift.
 */

let stack: Stack;
let endpoint: string;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  stack = await startStack();
  await seedDemoModel(stack.core, stack.projectId);
  await seedDemoContent(stack);
  const listening = await listenGraphql(stack);
  close = () => listening.close();
  endpoint = `${listening.url}/${stack.projectId}`;
  client = new Client({
    url: endpoint,
    exchanges: [fetchExchange],
    requestPolicy: 'network-only',
    preferGetMethod: false,
  });
}, 120_000);
afterAll(async () => {
  await close();
  await stack.close();
});

describe('generated artefacts from the running endpoint', () => {
  it('GraphQL Code Generator types the sample queries from introspection, as committed', async () => {
    const generated = await generatedSampleTypes(endpoint);
    expect(generated).toContain('export type Article = _Item & {');
    expect(generated).toContain("__typename?: 'Author';");
    expect(generated).toContain('export type ArticleBodyQuery = {');
    expect(committedText(generatedPaths.sampleTypes, generated)).toBe(generated);
  }, 60_000);

  it("the demo project's SDL, as committed in services/graphql/demo-schema.graphql", async () => {
    const sdl = await introspectedSdl(endpoint);
    expect(sdl).toContain('type Article implements _Item {');
    expect(sdl).toContain('_seo: _Seo!');
    expect(committedText(generatedPaths.demoSdl, sdl)).toBe(sdl);
  });
});

describe('urql core with typed queries (Kontent.ai sample shapes)', () => {
  it('reads one item by codename with its system fields, taxonomy and snippet', async () => {
    const doc = sampleOperation<ArticleByCodenameQuery, ArticleByCodenameQueryVariables>('ArticleByCodename');
    const { data, error } = await client.query(doc, { codename: 'hello_world' }).toPromise();
    expect(error).toBeUndefined();
    const article = data?.article;
    expect(article?._system_).toMatchObject({
      codename: 'hello_world',
      language: { _system_: { codename: 'default' } },
      collection: { _system_: { codename: 'default' } },
      workflowStep: { _system_: { codename: 'published' } },
    });
    expect(article?.title).toBe('Hello world');
    expect(article?.readingTime).toBe(5);
    expect(article?.publishedOn_with_timezone).toEqual({
      value: '2026-03-01T10:00:00Z',
      display_timezone: 'Europe/Prague',
    });
    expect(article?.slug).toBe('hello-world');
    expect(article?.topics.items.map((t) => t._system_.name)).toEqual(['Engineering']);
    expect(article?._seo).toEqual({ metaTitle: 'Hello world | Demo', metaDescription: '' });
  });

  it('lists with where filters, order and limit, with totalCount', async () => {
    const byTopic = sampleOperation<ArticlesByTopicQuery, ArticlesByTopicQueryVariables>('ArticlesByTopic');
    const { data } = await client.query(byTopic, { topic: 'engineering', limit: 5 }).toPromise();
    expect(data?.article_All.totalCount).toBe(1);
    expect(data?.article_All.items.map((i) => i._system_.codename)).toEqual(['hello_world']);
    const long = sampleOperation<LongReadsQuery, LongReadsQueryVariables>('LongReads');
    const reads = await client.query(long, { minutes: 6 }).toPromise();
    expect(reads.data?.article_All.items.map((i) => [i.title, i.readingTime])).toEqual([
      ['Design basics', 8],
      ['Pricing notes', 12],
    ]);
  });

  it('resolves nested linked items by __typename', async () => {
    const doc = sampleOperation<ArticlesWithAuthorsQuery, ArticlesWithAuthorsQueryVariables>('ArticlesWithAuthors');
    const { data } = await client.query(doc, {}).toPromise();
    const names = data?.article_All.items.map((a) => [
      a.title,
      a.authors.items.map((i) => (i.__typename === 'Author' ? i.name : i.__typename)),
    ]);
    expect(names).toEqual([
      ['Design basics', []],
      ['Hello world', ['Jane Doe', 'John Roe']],
      ['Pricing notes', ['John Roe']],
    ]);
    const jane = data?.article_All.items[1]?.authors.items[0];
    expect(jane?.__typename === 'Author' ? jane.bio.html : null).toBe('<p>Jane Doe writes.</p>');
  });

  it('reads rich text with components and linked items told apart by __typename', async () => {
    const doc = sampleOperation<ArticleBodyQuery, ArticleBodyQueryVariables>('ArticleBody');
    const { data } = await client.query(doc, { codename: 'hello_world' }).toPromise();
    const body = data?.article?.body;
    expect(body?.html).toContain('data-rel="component"');
    expect(body?.components.items).toEqual([
      {
        __typename: 'Author',
        _system_: { codename: 'n11111111_1111_4111_8111_111111111111', type: { _system_: { codename: 'author' } } },
        name: 'Guest Writer',
      },
    ]);
    expect(body?.linkedItems.items).toEqual([
      { __typename: 'Author', _system_: { codename: 'john_roe' }, name: 'John Roe' },
    ]);
    expect(body?.itemHyperlinks.items).toEqual([{ _system_: { codename: 'john_roe' } }]);
    expect(body?.assets.items).toEqual([]);
  });

  it('follows language fallbacks for a languageFilter', async () => {
    const doc = sampleOperation<ArticlesInLanguageQuery, ArticlesInLanguageQueryVariables>('ArticlesInLanguage');
    const { data } = await client.query(doc, { language: 'cs-CZ' }).toPromise();
    expect(data?.article_All.items.map((i) => [i.title, i._system_.language._system_.codename])).toEqual([
      ['Design basics', 'default'],
      ['Ahoj světe', 'cs-CZ'],
      ['Pricing notes', 'default'],
    ]);
  });

  it('sends GET requests too, and reports query errors as a CombinedError', async () => {
    const get = new Client({
      url: endpoint,
      exchanges: [fetchExchange],
      requestPolicy: 'network-only',
      preferGetMethod: 'force',
    });
    const doc = sampleOperation<LongReadsQuery, LongReadsQueryVariables>('LongReads');
    expect((await get.query(doc, { minutes: 10 }).toPromise()).data?.article_All.items).toEqual([
      { title: 'Pricing notes', readingTime: 12 },
    ]);
    const bad = await client.query(doc, { minutes: 'many' as unknown as number }).toPromise();
    expect(bad.error?.graphQLErrors[0]?.extensions['code']).toBe('BAD_USER_INPUT');
  });
});
