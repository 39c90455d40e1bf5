import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { auditObject, fixedAuditScope, operator, runAudited, type Actor, type NewChangeEvent } from '@lectern/core';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestDatabase } from './test-database.ts';

const p1 = '11111111-1111-4111-8111-111111111111';
const p2 = '22222222-2222-4222-8222-222222222222';
const u1 = 'a1000000-0000-4000-8000-000000000001';
const person: Actor = { type: 'person', userId: u1, projectId: p1, permissions: [], sessionId: 's' };

function event(operation: string, id: string, extra: Record<string, unknown> = {}): NewChangeEvent {
  return {
    objectKind: 'variant',
    operation,
    objectId: id,
    channel: 'delivery_preview',
    payload: { item_codename: `item_${id.slice(0, 4)}`, language_id: 'l1', language_codename: 'default', ...extra },
  };
}

async function seedProjects(store: SqlStore): Promise<void> {
  await store.transaction(async (tx) => {
    for (const id of [p1, p2])
      await tx.projects.insert({
        id,
        name: 'P',
        environment: 'Production',
        isSecureAccess: false,
        isProduction: true,
        createdAt: new Date(),
      });
  });
}

/** The audit log on a real engine (issue 31): one entry per change, in its transaction; append-only. */
function describeAuditStore(engine: string, open: () => Promise<SqlStore>) {
  describe(`audit log on ${engine}`, () => {
    let store: SqlStore;
    beforeEach(async () => {
      store = await open();
      await seedProjects(store);
    });
    afterEach(async () => {
      await store.close();
    });
    const entries = (projectId: string | null = p1) =>
      store.transaction((tx) => tx.audit.list({ projectId, before: null, limit: 100 }));

    it('writes one entry per changing transaction, with the scope of the entry point, and none for reads', async () => {
      await runAudited({ via: 'editor', requestId: 'req-1', actor: () => person }, () =>
        store.transaction(async (tx) => {
          await tx.outbox.append(
            p1,
            [event('upsert', 'c0ffee00-0000-4000-8000-000000000001', { step_id: 's2', previous_step_id: 's1' })],
            new Date(),
          );
          await tx.outbox.append(
            p1,
            [{ ...event('upsert', 'c0ffee00-0000-4000-8000-000000000001'), channel: 'delivery_production' }],
            new Date(),
          );
        }),
      );
      await store.transaction((tx) => tx.outbox.latestSeq(p1));
      const [entry, ...rest] = await entries();
      expect(rest).toHaveLength(0);
      expect(entry).toMatchObject({
        projectId: p1,
        actor: { type: 'user', userId: u1, keyId: null },
        via: 'editor',
        requestId: 'req-1',
        action: 'variant.upsert',
        object: {
          kind: 'variant',
          id: 'c0ffee00-0000-4000-8000-000000000001',
          codename: 'item_c0ff',
          languageCodename: 'default',
        },
        summary: { step: { from: 's1', to: 's2' } },
      });
    });

    it('writes nothing when the change rolls back', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.outbox.append(p1, [event('delete', 'c0ffee00-0000-4000-8000-000000000002')], new Date());
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await entries()).toEqual([]);
    });

    it('takes explicit notes instead of the events, and filters by person, object, action and time, newest first', async () => {
      await runAudited(fixedAuditScope({ via: 'admin_api', actor: operator }), () =>
        store.transaction(async (tx) => {
          tx.audit.note({ projectId: p1, action: 'api_key.create', object: auditObject('api_key', { id: 'k1' }) });
        }),
      );
      await runAudited({ via: 'editor', requestId: null, actor: () => person }, () =>
        store.transaction((tx) =>
          tx.outbox.append(p1, [event('create', 'c0ffee00-0000-4000-8000-000000000003')], new Date()),
        ),
      );
      await store.transaction((tx) =>
        tx.outbox.append(p2, [event('create', 'c0ffee00-0000-4000-8000-000000000004')], new Date()),
      );
      const all = await entries();
      expect(all.map((e) => e.action)).toEqual(['variant.create', 'api_key.create']);
      const list = (q: object) =>
        store.transaction((tx) => tx.audit.list({ projectId: p1, before: null, limit: 10, ...q }));
      expect((await list({ userId: u1 })).map((e) => e.action)).toEqual(['variant.create']);
      expect((await list({ action: 'api_key.' })).map((e) => e.object.id)).toEqual(['k1']);
      expect((await list({ objectId: 'c0ffee00-0000-4000-8000-000000000003' })).length).toBe(1);
      expect(await list({ from: new Date(Date.now() + 60_000) })).toEqual([]);
      expect((await list({ before: all[0]?.id })).map((e) => e.action)).toEqual(['api_key.create']);
      expect((await entries(null)).length).toBe(3);
      expect((await entries(p2))[0]?.via).toBe('system');
    });

    it('refuses every UPDATE, DELETE and TRUNCATE of the log, but lets retention prune', async () => {
      await store.transaction((tx) =>
        tx.outbox.append(
          p1,
          [event('create', 'c0ffee00-0000-4000-8000-000000000005')],
          new Date(Date.now() - 10 * 86_400_000),
        ),
      );
      await store.transaction((tx) =>
        tx.outbox.append(p1, [event('create', 'c0ffee00-0000-4000-8000-000000000006')], new Date()),
      );
      await expect(sql`update audit_log set action = 'x'`.execute(store.db)).rejects.toThrow(/append-only/);
      await expect(sql`delete from audit_log`.execute(store.db)).rejects.toThrow(/append-only/);
      await expect(sql`truncate audit_log`.execute(store.db)).rejects.toThrow(/append-only/);
      expect(await entries()).toHaveLength(2);
      expect(await store.transaction((tx) => tx.audit.prune(new Date(Date.now() - 86_400_000)))).toBe(1);
      // The pruning's permission ends with its transaction.
      await expect(sql`delete from audit_log`.execute(store.db)).rejects.toThrow(/append-only/);
      expect(await entries()).toHaveLength(1);
    });
  });
}

describeAuditStore('PGlite', () => openPgliteStore());

it('keeps the audit log across a restart (PGlite data directory)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-audit-'));
  try {
    const first = await openPgliteStore({ dataDir: dir });
    await seedProjects(first);
    await first.transaction((tx) =>
      tx.outbox.append(p1, [event('create', 'c0ffee00-0000-4000-8000-000000000007')], new Date()),
    );
    await first.close();
    const second = await openPgliteStore({ dataDir: dir });
    const kept = await second.transaction((tx) => tx.audit.list({ projectId: p1, before: null, limit: 10 }));
    await second.close();
    expect(kept.map((e) => e.action)).toEqual(['variant.create']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('writes no entry with the audit switched off (LECTERN_AUDIT=false)', async () => {
  const store = await openPgliteStore({ isAuditOn: false });
  await seedProjects(store);
  await store.transaction((tx) =>
    tx.outbox.append(p1, [event('create', 'c0ffee00-0000-4000-8000-000000000008')], new Date()),
  );
  expect(await store.transaction((tx) => tx.audit.list({ projectId: null, before: null, limit: 10 }))).toEqual([]);
  await store.close();
});

const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describeAuditStore('PostgreSQL', async () =>
    openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
  );
});
