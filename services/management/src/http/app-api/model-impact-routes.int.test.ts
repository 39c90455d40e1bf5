import { createServer } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomIds } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestClock, createTestDatabase, openTestCore, type TestCore } from '@lectern/testing';
import { createLogger, listen, type Listening } from '@lectern/http-kit';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { requireManagementKey } from '../auth.ts';
import { errorHandler } from '../errors.ts';
import { appModelImpactRouter } from './model-impact-routes.ts';

/*
 * The impact check of a proposed model change, against content written through the Management
 * API, on PGlite and PostgreSQL: the router sits behind the management key at a test path (the app mounts it behind the
 * person's session). Nothing it answers is saved.
 */

const postgresUrl = inject('postgresUrl');
const engines: { name: string; open: () => Promise<TestCore> }[] = [
  { name: 'PGlite', open: openTestCore },
  ...(postgresUrl
    ? [
        {
          name: 'PostgreSQL',
          open: async () => ({
            store: await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
            clock: createTestClock(),
            ids: randomIds,
          }),
        },
      ]
    : []),
];

describe.each(engines)('POST …/types/{key}/impact on $name', ({ open }) => {
  let server: TestManagement;
  let impact: Listening;

  const post = (path: string, body: unknown) =>
    server.fetch(path, {
      method: path.endsWith('/variants/codename/default') ? 'PUT' : 'POST',
      body: JSON.stringify(body),
    });

  async function check(path: string, operations: unknown) {
    const response = await fetch(`${impact.url}/test/projects/${server.projectId}${path}/impact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(operations),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    server = await startTestManagement({ core: await open() });
    const app = express();
    app.use(express.json());
    const project = express.Router({ mergeParams: true });
    project.use(requireManagementKey(server.core));
    project.use(appModelImpactRouter(server.core));
    app.use('/test/projects/:projectId', project);
    app.use(errorHandler(createLogger({ level: 'silent' })));
    impact = await listen(createServer(app), { host: '127.0.0.1', port: 0, graceMs: 1000 });
    expect(
      (
        await post('/snippets', {
          name: 'SEO',
          codename: 'seo',
          elements: [{ name: 'Keywords', codename: 'keywords', type: 'text' }],
        })
      ).status,
    ).toBe(201);
    const type = await post('/types', {
      name: 'Article',
      codename: 'article',
      elements: [
        { name: 'Title', codename: 'title', type: 'text' },
        { name: 'Summary', codename: 'summary', type: 'text' },
        {
          name: 'Tone',
          codename: 'tone',
          type: 'multiple_choice',
          mode: 'single',
          options: [
            { name: 'Calm', codename: 'calm' },
            { name: 'Loud', codename: 'loud' },
          ],
        },
        { type: 'snippet', snippet: { codename: 'seo' } },
      ],
    });
    expect(type.status).toBe(201);
    for (const [codename, title, tone] of [
      ['first', 'A rather long title', 'loud'],
      ['second', 'Short', 'calm'],
      ['third', '', 'loud'],
    ] as const) {
      expect((await post('/items', { name: codename, codename, type: { codename: 'article' } })).status).toBe(201);
      const put = await post(`/items/codename/${codename}/variants/codename/default`, {
        elements: [
          { element: { codename: 'title' }, value: title },
          { element: { codename: 'tone' }, value: [{ codename: tone }] },
          ...(codename === 'first' ? [{ element: { codename: 'seo__keywords' }, value: 'coffee' }] : []),
        ],
      });
      expect(put.status).toBe(201);
    }
  });

  afterAll(async () => {
    await impact.close();
    await server.close();
  });

  it('names the items whose values a removed element holds, and only those', async () => {
    const { status, body } = await check('/types/codename/article', [
      { op: 'remove', path: '/elements/codename:title' },
    ]);
    expect(status).toBe(200);
    expect(body['affected']).toEqual({ item_count: 2, variant_count: 2 });
    const [change] = body['changes'] as {
      kind: string;
      items: { codename: string }[];
      element: { codename: string };
    }[];
    expect(change?.kind).toBe('element_removed');
    expect(change?.element.codename).toBe('title');
    expect(change?.items.map((i) => i.codename).sort()).toEqual(['first', 'second']);
    expect(body['is_complete']).toBe(true);
    expect(body['variants_checked']).toBe(3);
  });

  it('reports a narrowed length limit and a removed option that is chosen', async () => {
    const { body } = await check('/types/codename/article', [
      {
        op: 'replace',
        path: '/elements/codename:title/maximum_text_length',
        value: { value: 10, applies_to: 'characters' },
      },
      { op: 'remove', path: '/elements/codename:tone/options/codename:loud' },
    ]);
    const changes = body['changes'] as { kind: string; item_count: number; items: { codename: string }[] }[];
    expect(changes.map((c) => [c.kind, c.items.map((i) => i.codename).sort()])).toEqual([
      ['limit_narrowed', ['first']],
      ['option_removed', ['first', 'third']],
    ]);
    expect(body['affected']).toEqual({ item_count: 2, variant_count: 2 });
  });

  it('finds nothing for a harmless change, and saves nothing either way', async () => {
    const { body } = await check('/types/codename/article', [
      { op: 'replace', path: '/elements/codename:summary/name', value: 'Lead' },
    ]);
    expect(body['changes']).toEqual([]);
    const type = (await (await server.fetch('/types/codename/article')).json()) as {
      elements: { codename: string; name?: string }[];
    };
    expect(type.elements.map((e) => e.codename)).toContain('title');
    expect(type.elements.find((e) => e.codename === 'summary')?.name).toBe('Summary');
  });

  it('checks the items of the types that use a snippet', async () => {
    const { body } = await check('/snippets/codename/seo', [{ op: 'remove', path: '/elements/codename:keywords' }]);
    expect(body['affected']).toEqual({ item_count: 1, variant_count: 1 });
  });

  it('refuses malformed operations as the PATCH does (400, the same messages)', async () => {
    const operations = [{ op: 'remove', path: '/elements/codename:nope' }];
    const { status, body } = await check('/types/codename/article', operations);
    const patch = await server.fetch('/types/codename/article', { method: 'PATCH', body: JSON.stringify(operations) });
    const patched = (await patch.json()) as Record<string, unknown>;
    expect(status).toBe(400);
    expect(patch.status).toBe(400);
    expect(body['validation_errors']).toEqual(patched['validation_errors']);
    expect((await check('/types/codename/missing', operations)).status).toBe(404);
  });
});
