/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are read deeply in assertions */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenGraphql, seedDemoContent, seedDemoModel, startStack, type Stack } from '../testing/graphql-stack.ts';
import {
  aliasedFields,
  fragmentBomb,
  limitByDefault,
  limitLiteral,
  nestedLinks,
  nestedLists,
  repeatedField,
  wideLinkedItems,
} from '../testing/hostile-queries.ts';

/*
 * Hostile documents through the real GraphQL listener (issue 27, findings 2 and 6): each is
 * answered with the GraphQL error shape and code of its bound, within seconds, never a 5xx.
 */

let stack: Stack;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  stack = await startStack();
  await seedDemoModel(stack.core, stack.projectId);
  await seedDemoContent(stack);
  const listening = await listenGraphql(stack);
  close = () => listening.close();
  url = `${listening.url}/${stack.projectId}`;
}, 120_000);
afterAll(async () => {
  await close();
  await stack.close();
});

interface Answer {
  status: number;
  headers: Headers;
  body: { data?: Record<string, any>; errors?: { message: string; extensions?: { code?: string } }[] };
}

async function post(query: string, variables?: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

describe('hostile documents are bounded before validation (issue 27)', () => {
  const link = { link: 'authors' };
  const timed = async (query: string, variables?: Record<string, unknown>) => {
    const started = Date.now();
    const answer = await post(query, variables);
    return { ...answer, ms: Date.now() - started };
  };

  it('answers 66 levels of linked items (2.8 kB) with QUERY_TOO_DEEP within 2 s (it froze the process)', async () => {
    const query = nestedLinks(66, link);
    expect(query.length).toBeGreaterThan(2_500);
    const deep = await timed(query);
    expect(deep.status).toBe(200);
    expect(deep.body.data).toBeUndefined();
    expect(deep.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('over the limit of 124'),
      extensions: { code: 'QUERY_TOO_DEEP' },
    });
    expect(deep.ms).toBeLessThan(2_000);
  });

  it('serves 8 kB of distinct aliases, twice, and refuses 8 kB of one repeated field', async () => {
    const wide = aliasedFields(8_000);
    const count = wide.match(/: title/g)?.length ?? 0;
    expect(count).toBeGreaterThan(600);
    for (let run = 0; run < 2; run += 1) {
      const answer = await timed(wide);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data?.['article_All'].items[0][`a${count - 1}`]).toBe('Design basics');
    }
    const repeated = await timed(repeatedField(8_000, '_system_ { codename }'));
    expect(repeated.status).toBe(200);
    expect(repeated.body.data).toBeUndefined();
    expect(repeated.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('same response names'),
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  });

  it('refuses a fragment bomb (30 fragments each spreading the next twice) before validating or compiling it', async () => {
    for (let run = 0; run < 3; run += 1) {
      const bomb = await timed(fragmentBomb(30));
      expect(bomb.status).toBe(200);
      expect(bomb.body.errors?.[0]).toMatchObject({
        message: expect.stringContaining('fields once its fragments are expanded'),
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      });
      expect(bomb.ms).toBeLessThan(2_000);
    }
  });

  it('refuses 600 aliases under 20 × 20 items by the field values the answer could hold (it held the loop for 0.6 s)', async () => {
    const wide = await timed(wideLinkedItems(600, { ...link, type: 'Author', field: 'name' }));
    expect(wide.status).toBe(200);
    expect(wide.headers.get('x-complexity')).toBe('420');
    expect(wide.body.data).toBeUndefined();
    expect(wide.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('over the limit of 20000'),
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  });

  it('answers 1,990 nested lists in an argument with QUERY_TOO_DEEP, not a 500 (they overflowed the parser stack)', async () => {
    const lists = await post(nestedLists(1_990));
    expect(lists.status).toBe(200);
    expect(lists.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('more than 500 levels'),
      extensions: { code: 'QUERY_TOO_DEEP' },
    });
  });

  it("refuses a page size given as a variable's default like its literal twin", async () => {
    const literal = await post(limitLiteral(link));
    expect(literal.headers.get('x-complexity')).toBe('840');
    expect(literal.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const byDefault = await post(limitByDefault(link));
    expect(byDefault.headers.get('x-complexity')).toBe('840');
    expect(byDefault.body.data).toBeUndefined();
    expect(byDefault.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('840'),
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    const given = await post(limitByDefault(link), { l: 3 });
    expect(given.body.errors).toBeUndefined();
    expect(given.headers.get('x-complexity')).toBe(String(2 * (3 + 3 * 3)));
  });
});
