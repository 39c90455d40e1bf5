import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomIds, type ItemQuery } from '@lectern/core';
import { connectSearchEngine } from '@lectern/search-engine';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestClock, createTestDatabase } from '@lectern/testing';
import { startTestStack, type TestStack } from './test-stack.ts';
import { runCommand } from '../../services/lectern/src/testing/test-process.ts';

const searchUrl = inject('searchUrl');
const postgresUrl = inject('postgresUrl');

/**
 * `lectern index rebuild` on the search-engine index of a PostgreSQL store: it renders every item
 * into a new index and points the project's alias at it, so the same answers come from another
 * index; the old one is gone.
 */
describe.skipIf(!searchUrl || !postgresUrl)('lectern index rebuild on the search engine', () => {
  let stack: TestStack;
  let databaseUrl: string;
  const prefix = `rebuild-${Date.now().toString(36)}`;
  const engine = connectSearchEngine({ flavour: 'opensearch', url: searchUrl });
  const aliasTargets = () => engine.aliasTargets(`${prefix}-${stack.projectId}`);
  /** `lectern index rebuild` of the test project into the OpenSearch delivery index, with `extra` flags. */
  const rebuildProject = (...extra: string[]) =>
    runCommand([
      'index',
      'rebuild',
      '--project',
      stack.projectId,
      '--database-url',
      databaseUrl,
      '--delivery-index',
      'opensearch',
      '--search-url',
      searchUrl,
      '--search-index-prefix',
      prefix,
      ...extra,
      '--no-progress',
    ]);

  beforeAll(async () => {
    databaseUrl = await createTestDatabase(postgresUrl);
    const store = await openPostgresStore({ connectionString: databaseUrl });
    stack = await startTestStack({
      core: { store, clock: createTestClock(), ids: randomIds },
      searchUrl,
      searchIndexPrefix: prefix,
    });
    await stack.managementJson('/types', {
      body: { name: 'Page', codename: 'page', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
    });
    for (const codename of ['home', 'about']) {
      await stack.managementJson('/items', { body: { name: codename, codename, type: { codename: 'page' } } });
      await stack.managementJson(`/items/codename/${codename}/variants/codename/default`, {
        method: 'PUT',
        body: { elements: [{ element: { codename: 'title' }, value: `Title of ${codename}` }] },
      });
    }
    await stack.catchUp();
  });
  afterAll(async () => {
    await stack?.close();
    await engine.close();
  });

  it('renders into a new index and swaps the alias; the answers stay the same', async () => {
    const query: ItemQuery = {
      projectId: stack.projectId,
      channel: 'preview',
      languages: ['default'],
      filters: [{ property: 'elements.title', operator: 'eq', values: ['Title of home'] }],
      order: null,
      skip: 0,
      limit: null,
      isTotalCountNeeded: true,
    };
    const before = await stack.index.queryItems(query);
    expect(before.items.map((i) => i.item.system.codename)).toEqual(['home']);
    const [oldIndex] = await aliasTargets();
    const watermark = await stack.index.watermark(stack.projectId);

    const rebuilt = await rebuildProject();
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/The delivery index is rebuilt \(opensearch at /);

    const [newIndex] = await aliasTargets();
    expect(newIndex).toBeDefined();
    expect(newIndex).not.toBe(oldIndex);
    // The old index held only this project: it is gone.
    expect(await engine.indices(`${prefix}-v*`)).toEqual([newIndex]);
    expect(await stack.index.watermark(stack.projectId)).toBe(watermark);
    // The same answer from the new index; only the read pin's time (when the watermark was read) moves.
    const after = await stack.index.queryItems(query);
    expect({ ...after, pin: { ...after.pin, readAt: 0 } }).toEqual({ ...before, pin: { ...before.pin, readAt: 0 } });
  });

  it('needs the search engine URL for a search index', async () => {
    const result = await runCommand([
      'index',
      'rebuild',
      '--database-url',
      databaseUrl,
      '--delivery-index',
      'opensearch',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/LECTERN_SEARCH_URL is needed/);
  });

  it('renders the published items into the k-NN recommendation index (--recs-index opensearch)', async () => {
    await stack.managementJson('/items/codename/home/variants/codename/default/publish', { method: 'PUT' });
    await stack.catchUp();
    const rebuilt = await rebuildProject('--recs-index', 'opensearch');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/The recommendation index is rebuilt \(opensearch k-NN/);
    const found = await engine.search<{ codename: string }>('lectern-recs-512d', {
      query: { term: { project_id: stack.projectId } },
      size: 10,
    });
    expect(found.hits.hits.map((h) => h._source?.codename)).toEqual(['home']);
  });
});
