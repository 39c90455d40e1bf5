import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@lectern/config';
import { startEmbedded, type EmbeddedServer } from './embedded.ts';
import { startSettings } from './settings.ts';

/*
 * `lectern start` serves GraphQL on its own listener (port base + 3), reading the same index as
 * Delivery, and preview GraphQL (port base + 5) when LECTERN_GRAPHQL_PREVIEW is on.
 */

let server: EmbeddedServer;
let dataDir: string;
let projectId: string;
let keys: Record<string, string>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lectern-graphql-'));
  const config = loadConfig({
    settings: startSettings,
    env: { LECTERN_DATA_DIR: dataDir, LECTERN_PORT_BASE: '0', LECTERN_LOG_LEVEL: 'silent', LECTERN_GRAPHQL_PREVIEW: 'true' },
  });
  server = await startEmbedded(config);
  const demo = server.demo;
  if (demo === null) throw new Error('no demo project');
  projectId = demo.project.id;
  keys = Object.fromEntries(demo.keys.map((k) => [k.key.kind, k.secret]));
  const mapi = async (path: string, method: string, body?: unknown) => {
    const res = await fetch(`${server.urls.management}/v2/projects/${projectId}${path}`, {
      method,
      headers: { authorization: `Bearer ${keys['management']}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  for (const [codename, isPublished] of [
    ['published_one', true],
    ['draft_one', false],
  ] as const) {
    await mapi('/items', 'POST', { name: codename, codename, type: { codename: 'article' } });
    await mapi(`/items/codename/${codename}/variants/codename/default`, 'PUT', {
      elements: [{ element: { codename: 'title' }, value: codename.replace('_', ' ') }],
    });
    if (isPublished) await mapi(`/items/codename/${codename}/variants/codename/default/publish`, 'PUT');
  }
}, 120_000);
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function titles(base: string, key?: string) {
  const res = await fetch(`${base}/${projectId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-kc-wait-for-loading-new-content': 'true',
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify({ query: '{ article_All { items { title } } }' }),
  });
  const body = (await res.json()) as { data?: { article_All: { items: { title: string }[] } } };
  // The test's own two articles, beside the demo project's published ones.
  const own = body.data?.article_All.items.map((i) => i.title).filter((t) => t.endsWith(' one'));
  return { status: res.status, titles: own };
}

it('serves published content of the demo project on the GraphQL listener', async () => {
  expect(await titles(server.urls.graphql)).toEqual({ status: 200, titles: ['published one'] });
});

it('serves unpublished content to preview keys on the preview GraphQL listener', async () => {
  const preview = server.urls.graphqlPreview ?? '';
  expect(preview).not.toBe('');
  expect((await titles(preview)).status).toBe(401);
  expect((await titles(preview, keys['delivery_primary'])).status).toBe(401);
  expect(await titles(preview, keys['preview_primary'])).toEqual({
    status: 200,
    titles: ['draft one', 'published one'],
  });
});
