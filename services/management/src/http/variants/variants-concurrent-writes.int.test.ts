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
 * counter, no project-wide item lock) must not change. Each upsert leaves exactly one version, one
 * audit entry naming the element it changed, and one event; the event sequence stays gap-free;
 * racing item writes get distinct codenames or one item; nothing is counted.
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
  const send = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${server.url}/v2/projects/${project.id}/items${path}`, {
      method,
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const put = async (path: string, body: unknown) => {
    const { status, json } = await send('PUT', `/external-id/${path}`, body);
    expect([200, 201]).toContain(status);
    return json;
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

    // Items take no project-wide lock: racing creates of one name, and racing upserts of one
    // external id, meet at the unique indexes and the losers run again.
    const racers = 6;
    const created = await Promise.all(
      Array.from({ length: racers }, () => send('POST', '', { name: 'Race', type: { codename: 'note' } })),
    );
    expect(created.map((c) => c.status)).toEqual(Array.from({ length: racers }, () => 201));
    const codenames = created.map((c) => String(c.json['codename']));
    expect(new Set(codenames).size).toBe(racers);
    expect(codenames).toContain('race');
    const upserted = await Promise.all(
      Array.from({ length: racers }, (_, n) =>
        send('PUT', '/external-id/raced', { name: `Raced ${n}`, type: { codename: 'note' } }),
      ),
    );
    expect(upserted.map((u) => u.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(upserted.map((u) => u.json['id'])).size).toBe(1);
    const raced = await db.selectFrom('content_items').select('name').where('external_id', '=', 'raced').execute();
    expect(raced).toHaveLength(1);
    const itemEvents = await db
      .selectFrom('outbox_events')
      .select(['seq', 'operation'])
      .where('project_id', '=', project.id)
      .where('object_kind', '=', 'item')
      .where('seq', '>', Number(sequence.last_seq))
      .execute();
    expect(itemEvents.filter((e) => e.operation === 'create')).toHaveLength(2 * (racers + 1));
    expect(itemEvents.filter((e) => e.operation === 'metadata_changed')).toHaveLength(2 * (racers - 1));
    // (Each item event is one per Delivery channel, production and preview.)
    // Every event was numbered at its commit: none waits, and the sequence has no gap.
    expect(await db.selectFrom('outbox_pending').selectAll().execute()).toEqual([]);
    const all = await db
      .selectFrom('outbox_events')
      .select('seq')
      .where('project_id', '=', project.id)
      .orderBy('seq')
      .execute();
    expect(all.map((e) => Number(e.seq))).toEqual(all.map((_, k) => k + 1));

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
