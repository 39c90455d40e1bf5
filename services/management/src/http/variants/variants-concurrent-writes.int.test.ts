import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { addContentType, createApiKey, createProject, operator, randomIds, systemClock } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen } from '@lectern/http-kit';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestDatabase } from '@lectern/testing';
import { buildManagementApp } from '../../app.ts';

/**
 * Concurrent variant upserts over HTTP with the rate limits off (issue 35): what the write path's
 * shortcuts (one statement for the outbox append, the changed elements computed once, no rate
 * counter) must not change. Each upsert leaves exactly one version, one audit entry naming the
 * element it changed, and one event; the event sequence stays gap-free; nothing is counted.
 */
const postgresUrl = inject('postgresUrl');
const items = 4;
const savesPerItem = 8;

async function exercise(store: SqlStore): Promise<void> {
  const core = { store, clock: systemClock, ids: randomIds };
  const project = await createProject(core, { actor: operator, name: 'Concurrent writes' });
  const input = { actor: operator, projectId: project.id };
  await addContentType(core, {
    ...input,
    body: {
      name: 'Note',
      codename: 'note',
      elements: [
        { name: 'Title', codename: 'title', type: 'text' },
        { name: 'Body', codename: 'body', type: 'text' },
      ],
    },
  });
  const key = await createApiKey(core, { ...input, kind: 'management', userEmail: 'writer@example.com' });
  const app = buildManagementApp({
    core,
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    operatorToken: null,
    rateLimits: { perSecond: Infinity, perMinute: Infinity, perHour: Infinity },
  });
  const server = await listen(createServer(app), { host: '127.0.0.1', port: 0 });
  const put = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}/v2/projects/${project.id}/items/external-id/${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect([200, 201]).toContain(response.status);
    return (await response.json()) as Record<string, unknown>;
  };
  try {
    const ids: string[] = [];
    for (let i = 0; i < items; i++)
      ids.push(String((await put(`note_${i}`, { name: `Note ${i}`, type: { codename: 'note' } }))['id']));
    // Every item's first save (a create, both elements), then all the others at once.
    for (let i = 0; i < items; i++)
      await put(`note_${i}/variants/codename/default`, {
        elements: [
          { element: { codename: 'title' }, value: 'Title 0' },
          { element: { codename: 'body' }, value: 'Body' },
        ],
      });
    await Promise.all(
      Array.from({ length: items * (savesPerItem - 1) }, (_, n) =>
        put(`note_${n % items}/variants/codename/default`, {
          elements: [
            { element: { codename: 'title' }, value: `Title ${1 + Math.floor(n / items)}` },
            { element: { codename: 'body' }, value: 'Body' },
          ],
        }),
      ),
    );
    const db = store.db;
    const type = await db
      .selectFrom('model_objects')
      .select('body')
      .where('project_id', '=', project.id)
      .where('kind', '=', 'content_type')
      .executeTakeFirstOrThrow();
    const elements = (type.body as unknown as { elements: { id: string; codename: string }[] }).elements;
    const titleId = elements.find((e) => e.codename === 'title')?.id;
    const bodyId = elements.find((e) => e.codename === 'body')?.id;

    const versions = await db
      .selectFrom('variant_versions')
      .select(['item_id', 'seq', 'changed_elements'])
      .where('project_id', '=', project.id)
      .orderBy('item_id')
      .orderBy('seq')
      .execute();
    for (const id of ids) {
      const of = versions.filter((v) => v.item_id === id);
      expect(of.map((v) => Number(v.seq))).toEqual(Array.from({ length: savesPerItem }, (_, k) => k + 1));
      expect([...(of[0]?.changed_elements ?? [])].sort()).toEqual([titleId, bodyId].sort());
      // The same body every time: only the title changed in the later versions.
      for (const later of of.slice(1)) expect(later.changed_elements).toEqual([titleId]);
    }

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'summary'])
      .where('project_id', '=', project.id)
      .where('object_kind', '=', 'variant')
      .orderBy('id')
      .execute();
    expect(audit.filter((e) => e.action === 'variant.create')).toHaveLength(items);
    const upserts = audit.filter((e) => e.action === 'variant.upsert');
    expect(upserts).toHaveLength(items * (savesPerItem - 1));
    for (const entry of upserts) expect(entry.summary['changed_elements']).toEqual([titleId]);

    const events = await db
      .selectFrom('outbox_events')
      .select(['seq', 'operation', 'object_kind'])
      .where('project_id', '=', project.id)
      .orderBy('seq')
      .execute();
    expect(events.map((e) => Number(e.seq))).toEqual(events.map((_, k) => k + 1));
    const variantEvents = events.filter((e) => e.object_kind === 'variant');
    expect(variantEvents.filter((e) => e.operation === 'create')).toHaveLength(items);
    expect(variantEvents.filter((e) => e.operation === 'upsert')).toHaveLength(items * (savesPerItem - 1));
    const sequence = await db
      .selectFrom('project_sequences')
      .select('last_seq')
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow();
    expect(Number(sequence.last_seq)).toBe(events.length);

    // Rate limits off: no request was counted.
    expect(await db.selectFrom('rate_limit_hits').selectAll().execute()).toEqual([]);
  } finally {
    await server.close();
  }
}

describe('concurrent variant upserts through the Management API, rate limits off', () => {
  it('keeps one version, one audit entry and one event per upsert on PGlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-concurrent-writes-'));
    const store = await openPgliteStore({ dataDir: join(dir, 'pglite') });
    try {
      await exercise(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgresUrl)('keeps one version, one audit entry and one event per upsert on PostgreSQL', async () => {
    const store = await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) });
    try {
      await exercise(store);
    } finally {
      await store.close();
    }
  });
});
