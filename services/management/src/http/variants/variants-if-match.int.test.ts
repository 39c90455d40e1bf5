import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestCore } from '@lectern/testing';
import { openPostgresTestCore } from '../../testing/people-fixture.ts';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { seedContentModel } from './test-model.ts';

/*
 * Optimistic concurrency on variants (Lectern extension, issue 31): GET and PUT answer a strong
 * ETag; a PUT with a stale `If-Match` is refused with 412 in the Management API's error shape and
 * stores nothing; without `If-Match`, an upsert behaves as before.
 */

type Json = Record<string, unknown>;
const path = '/items/codename/shared/variants/codename/default';
const postgresUrl = inject('postgresUrl');

function describeIfMatch(engine: string, openCore: () => Promise<TestCore | undefined>): void {
  let server: TestManagement;

  const title = (value: string) => ({ elements: [{ element: { codename: 'title' }, value }] });

  async function put(body: unknown, headers: Record<string, string> = {}) {
    const response = await server.fetch(path, { method: 'PUT', body: JSON.stringify(body), headers });
    return { status: response.status, etag: response.headers.get('etag'), json: (await response.json()) as Json };
  }

  async function read(): Promise<{ etag: string | null; title: unknown }> {
    const response = await server.fetch(path);
    const json = (await response.json()) as { elements: { element: { id: string }; value: unknown }[] };
    const titleId = (await (await server.fetch('/types/codename/article')).json()) as {
      elements: { id: string; codename: string }[];
    };
    const id = titleId.elements.find((e) => e.codename === 'title')?.id;
    return { etag: response.headers.get('etag'), title: json.elements.find((e) => e.element.id === id)?.value };
  }

  beforeAll(async () => {
    const core = await openCore();
    server = await startTestManagement(core ? { core } : {});
    await seedContentModel(server);
    await server.fetch('/items', {
      method: 'POST',
      body: JSON.stringify({ name: 'Shared', type: { codename: 'article' } }),
    });
  });
  afterAll(async () => {
    await server.close();
  });

  describe(`variant ETag and If-Match on ${engine}`, () => {
    it('answers a strong ETag on PUT that GET repeats, and a new one after every change', async () => {
      const created = await put(title('First'));
      expect(created.status).toBe(201);
      expect(created.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      const first = await read();
      expect(first.etag).toBe(created.etag);
      const changed = await put(title('Second'));
      expect(changed.etag).not.toBe(created.etag);
      expect((await read()).etag).toBe(changed.etag);
      // The tag names the stored version, the same through Management API v1.
      const v1 = await fetch(`${server.baseUrl.replace(/\/v2$/, '/v1')}/projects/${server.projectId}${path}`, {
        headers: { authorization: `Bearer ${server.apiKey}` },
      });
      expect(v1.status).toBe(200);
      expect(v1.headers.get('etag')).toBe(changed.etag);
      // A workflow move changes what is stored, so the tag changes too (and back to Draft again).
      const move = (step: string) =>
        server.fetch(`${path}/change-workflow`, {
          method: 'PUT',
          body: JSON.stringify({ workflow_identifier: { codename: 'default' }, step_identifier: { codename: step } }),
        });
      expect((await move('archived')).status).toBe(204);
      const archived = (await read()).etag;
      expect(archived).not.toBe(changed.etag);
      expect((await move('draft')).status).toBe(204);
      expect((await read()).etag).not.toBe(archived);
    });

    it('saves with the current ETag in If-Match (200) and answers the next one', async () => {
      const current = await read();
      const saved = await put(title('Matched'), { 'if-match': current.etag ?? '' });
      expect(saved.status).toBe(200);
      expect(saved.etag).not.toBe(current.etag);
      expect((await read()).title).toBe('Matched');
      // A list of tags matches when one of them does; `*` matches any existing variant.
      const listed = await put(title('Listed'), { 'if-match': `"stale-tag-000000000000", ${saved.etag ?? ''}` });
      expect(listed.status).toBe(200);
      expect((await put(title('Any'), { 'if-match': '*' })).status).toBe(200);
    });

    it('refuses a stale If-Match with 412 in the Management API shape and stores nothing', async () => {
      const before = await read();
      const stale = before.etag;
      const other = await put(title('Someone else'));
      expect(other.status).toBe(200);
      const refused = await put(title('Mine'), { 'if-match': stale ?? '' });
      expect(refused.status).toBe(412);
      expect(refused.json).toMatchObject({ error_code: 412, message: expect.stringContaining('If-Match') });
      expect(typeof refused.json['request_id']).toBe('string');
      const after = await read();
      expect(after.title).toBe('Someone else');
      expect(after.etag).toBe(other.etag);
      // A weak tag never matches (strong comparison), nor does a tag for a variant that does not exist.
      expect((await put(title('Weak'), { 'if-match': `W/${after.etag ?? ''}` })).status).toBe(412);
      const absent = await server.fetch('/items', {
        method: 'POST',
        body: JSON.stringify({ name: 'Absent', type: { codename: 'article' } }),
      });
      expect(absent.status).toBe(201);
      const none = await server.fetch('/items/codename/absent/variants/codename/default', {
        method: 'PUT',
        body: JSON.stringify(title('x')),
        headers: { 'if-match': '*' },
      });
      expect(none.status).toBe(412);
      expect((await server.fetch('/items/codename/absent/variants/codename/default')).status).toBe(404);
      expect((await read()).title).toBe('Someone else');
    });

    it('keeps last-write-wins without If-Match', async () => {
      const a = await put(title('Without a tag'));
      expect(a.status).toBe(200);
      expect((await read()).title).toBe('Without a tag');
    });
  });
}

describeIfMatch('PGlite', () => Promise.resolve(undefined));
if (postgresUrl) describeIfMatch('PostgreSQL', () => openPostgresTestCore(postgresUrl));
