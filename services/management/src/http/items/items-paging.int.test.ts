import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingStore, type CountingStore } from '../../testing/counting-store.ts';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

interface ItemsPage {
  items: { id: string; codename: string; name: string }[];
  pagination: { continuation_token: string | null; next_page: string | null };
}
interface ErrorJson {
  request_id: string;
  error_code: number;
  message: string;
}

let server: TestManagement;
let store: CountingStore;
let typeId: string;
const seeded = 300;

async function addItem(name: string): Promise<string> {
  const response = await server.fetch('/items', {
    method: 'POST',
    body: JSON.stringify({ name, type: { id: typeId } }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { codename: string }).codename;
}

async function deleteItem(codename: string): Promise<void> {
  expect((await server.fetch(`/items/codename/${codename}`, { method: 'DELETE' })).status).toBe(204);
}

/** One page of `/items` (v2 or v1), the token sent as the header or as the query parameter. */
async function itemsPage(options: {
  token?: string | null;
  as?: 'header' | 'query';
  version?: 'v1' | 'v2';
}): Promise<ItemsPage> {
  const { token = null, as = 'header', version = 'v2' } = options;
  const base = `${server.baseUrl.replace(/\/v2$/, `/${version}`)}/projects/${server.projectId}/items`;
  const url = token !== null && as === 'query' ? `${base}?continuationToken=${encodeURIComponent(token)}` : base;
  const response = await fetch(url, {
    headers: {
      authorization: `Bearer ${server.apiKey}`,
      ...(token !== null && as === 'header' ? { 'x-continuation': token } : {}),
    },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as ItemsPage;
}

beforeAll(async () => {
  server = await startTestManagement({
    wrapStore: (plain) => {
      store = countingStore(plain);
      return store;
    },
  });
  const type = await server.fetch('/types', {
    method: 'POST',
    body: JSON.stringify({ name: 'Note', codename: 'note', elements: [{ name: 'T', codename: 't', type: 'text' }] }),
  });
  typeId = ((await type.json()) as { id: string }).id;
  for (let i = 0; i < seeded; i++) await addItem(`Item ${i}`);
});
afterAll(async () => {
  await server.close();
});

describe('items paged by key (issue 11)', () => {
  it('walks every item once, in creation order, while items are created and deleted between pages', async () => {
    const expected = Array.from({ length: seeded }, (_, i) => `item_${i}`);
    const seen: string[] = [];
    let page = await itemsPage({});
    const mutate = async (round: number) => {
      // Delete an item already listed, the next one to be listed and the last one; create two
      // (they come last).
      const unseen = expected.filter((c) => !seen.includes(c));
      for (const codename of [seen[round * 7] as string, unseen[0] as string, unseen.at(-1) as string]) {
        await deleteItem(codename);
        if (!seen.includes(codename)) expected.splice(expected.indexOf(codename), 1);
      }
      for (const n of [0, 1]) expected.push(await addItem(`Late ${round} ${n}`));
    };
    let round = 0;
    for (;;) {
      seen.push(...page.items.map((i) => i.codename));
      if (page.pagination.continuation_token === null) break;
      expect(page.items).toHaveLength(100);
      await mutate(round++);
      page = await itemsPage({ token: page.pagination.continuation_token, as: round % 2 === 0 ? 'header' : 'query' });
    }
    expect(round).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expected);
  });

  it('pages v1 by the continuationToken query to the same items as v2, next_page carrying the token', async () => {
    const v2: string[] = [];
    const v1: string[] = [];
    let token: string | null = null;
    do {
      const page: ItemsPage = await itemsPage({ token });
      v2.push(...page.items.map((i) => i.id));
      token = page.pagination.continuation_token;
    } while (token !== null);
    do {
      const page: ItemsPage = await itemsPage({ token, as: 'query', version: 'v1' });
      v1.push(...page.items.map((i) => i.id));
      token = page.pagination.continuation_token;
      if (token !== null)
        expect(page.pagination.next_page).toContain(`?continuationToken=${encodeURIComponent(token)}`);
    } while (token !== null);
    expect(v1).toEqual(v2);
    const all = await server.client.listContentItems().toAllPromise();
    expect(all.data.items.map((i) => i.id)).toEqual(v2);
  });

  it('reads a later page with as few queries as the first', async () => {
    const first = await itemsPage({});
    store.reset();
    await itemsPage({ token: first.pagination.continuation_token });
    // The page of items, the spaces (for every item's `spaces`) and, at authentication, the roles of
    // the key's user; nothing per item.
    expect(store.count('items', 'variants', 'model', 'assets')).toBeLessThanOrEqual(3);
    store.reset();
    await itemsPage({ token: first.pagination.continuation_token, as: 'query', version: 'v1' });
    expect(store.count('items', 'variants', 'model', 'assets')).toBeLessThanOrEqual(2);
  });
});

describe('refused continuation tokens (400, error_code 1007)', () => {
  const refusal = async (path: string, init: { header?: string; query?: string } = {}) => {
    const url = `${path}${init.query === undefined ? '' : `?continuationToken=${encodeURIComponent(init.query)}`}`;
    const response = await fetch(url, {
      headers: {
        authorization: `Bearer ${server.apiKey}`,
        ...(init.header === undefined ? {} : { 'x-continuation': init.header }),
      },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorJson;
    expect(body).toMatchObject({ error_code: 1007, request_id: expect.any(String) });
    return body.message;
  };
  const v2 = (path: string) => `${server.baseUrl}/projects/${server.projectId}${path}`;
  const v1 = (path: string) => `${v2(path).replace('/v2/', '/v1/')}`;
  const byHeader = "Header 'x-continuation' is invalid. Use the continuation token from the previous page.";
  const byQuery = "Query parameter 'continuationToken' is invalid. Use the continuation token from the previous page.";
  const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('names the x-continuation header or the continuationToken query parameter, whichever carried it', async () => {
    expect(await refusal(v2('/items'), { header: 'garbage' })).toBe(byHeader);
    expect(await refusal(v2('/items'), { query: 'garbage' })).toBe(byQuery);
    expect(await refusal(v1('/items'), { query: 'garbage' })).toBe(byQuery);
    expect(await refusal(v1('/items'), { header: 'garbage' })).toBe(byHeader);
    expect(await refusal(v2('/assets'), { header: 'garbage' })).toBe(byHeader);
    expect(await refusal(v1('/assets'), { query: 'garbage' })).toBe(byQuery);
    expect(await refusal(v2('/types/codename/note/variants'), { query: 'garbage' })).toBe(byQuery);
    expect(await refusal(v2('/languages'), { header: 'garbage' })).toBe(byHeader);
  });

  it('refuses tokens of another list, of another container, of the old offset form and tampered ones', async () => {
    const first = await itemsPage({});
    const itemsToken = first.pagination.continuation_token as string;
    const decoded = JSON.parse(Buffer.from(itemsToken, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const foreign of [
      token({ o: 100 }),
      token({ ...decoded, l: 'assets' }),
      token({ ...decoded, s: 'AAAAAAAA' }),
      token({ ...decoded, k: [-1] }),
      token({ ...decoded, k: ['1'] }),
      token({ ...decoded, k: [1, 2] }),
      token([1]),
      token(null),
    ])
      expect(await refusal(v2('/items'), { header: foreign })).toBe(byHeader);
    expect(await refusal(v2('/assets'), { header: itemsToken })).toBe(byHeader);
    expect(await refusal(v2('/types/codename/note/variants'), { header: itemsToken })).toBe(byHeader);
    expect(await refusal(v2('/languages'), { query: itemsToken })).toBe(byQuery);
  });
});
