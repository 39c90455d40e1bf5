import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingStore, type CountingStore } from '../../testing/counting-store.ts';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

interface AssetsPage {
  assets: { id: string; file_name: string }[];
  pagination: { continuation_token: string | null; next_page: string | null };
}

let server: TestManagement;
let store: CountingStore;
const created: string[] = [];

async function addAsset(name: string): Promise<string> {
  const file = await server.client
    .uploadBinaryFile()
    .withData({ binaryData: Buffer.from(name), contentType: 'text/plain', filename: name })
    .toPromise();
  const response = await server.fetch('/assets', {
    method: 'POST',
    body: JSON.stringify({ file_reference: { id: file.data.id, type: 'internal' } }),
  });
  expect(response.status).toBe(201);
  const id = ((await response.json()) as { id: string }).id;
  created.push(id);
  return id;
}

async function assetsPage(options: { token?: string | null; version?: 'v1' | 'v2' } = {}): Promise<AssetsPage> {
  const { token = null, version = 'v2' } = options;
  const base = `${server.baseUrl.replace(/\/v2$/, `/${version}`)}/projects/${server.projectId}/assets`;
  const response = await fetch(
    version === 'v1' && token !== null ? `${base}?continuationToken=${encodeURIComponent(token)}` : base,
    {
      headers: {
        authorization: `Bearer ${server.apiKey}`,
        ...(version === 'v2' && token !== null ? { 'x-continuation': token } : {}),
      },
    },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as AssetsPage;
}

beforeAll(async () => {
  server = await startTestManagement({
    wrapStore: (plain) => {
      store = countingStore(plain);
      return store;
    },
  });
  for (let i = 0; i < 230; i++) await addAsset(`asset-${i}.txt`);
});
afterAll(async () => {
  await server.close();
});

describe('assets paged by key (issue 11)', () => {
  it('walks every asset once, in creation order, while assets are created and deleted between pages', async () => {
    const expected = [...created];
    const seen: string[] = [];
    let page = await assetsPage();
    let round = 0;
    for (;;) {
      seen.push(...page.assets.map((a) => a.id));
      if (page.pagination.continuation_token === null) break;
      expect(page.assets).toHaveLength(100);
      const unseen = expected.filter((id) => !seen.includes(id));
      for (const id of [seen[round] as string, unseen[0] as string, unseen.at(-1) as string]) {
        expect((await server.fetch(`/assets/${id}`, { method: 'DELETE' })).status).toBe(204);
        if (!seen.includes(id)) expected.splice(expected.indexOf(id), 1);
      }
      expected.push(await addAsset(`late-${round}.txt`));
      round++;
      page = await assetsPage({ token: page.pagination.continuation_token });
    }
    expect(round).toBe(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expected);
  });

  it('pages v1 by the continuationToken query to the same assets, each page with three queries', async () => {
    const v2: string[] = [];
    const v1: string[] = [];
    let token: string | null = null;
    do {
      const page: AssetsPage = await assetsPage({ token });
      v2.push(...page.assets.map((a) => a.id));
      token = page.pagination.continuation_token;
    } while (token !== null);
    const first = await assetsPage({ version: 'v1' });
    store.reset();
    let page = await assetsPage({ token: first.pagination.continuation_token, version: 'v1' });
    // The page, its binary files and the languages (descriptions); the key's user and roles (the
    // permissions every core operation checks) come with the key, in the authentication's one query.
    expect(store.count('items', 'variants', 'model', 'assets', 'binaryFiles')).toBe(3);
    v1.push(...first.assets.map((a) => a.id), ...page.assets.map((a) => a.id));
    while (page.pagination.continuation_token !== null) {
      page = await assetsPage({ token: page.pagination.continuation_token, version: 'v1' });
      v1.push(...page.assets.map((a) => a.id));
    }
    expect(v1).toEqual(v2);
  });
});
