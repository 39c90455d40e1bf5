import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openPgliteStore } from '@lectern/store-sql';
import { startServer } from './testing/test-process.ts';

/**
 * Durability of the embedded shape: a stream of writes, SIGKILL in the middle, restart. Every
 * acknowledged write must be there, and no write may be half there (a project without its change
 * event, or an event without its project, or a gap in the sequence).
 */
describe('embedded store after SIGKILL', () => {
  it('keeps every committed write and no partial one, over three kill cycles', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-crash-'));
    const acknowledged = new Set<string>();
    let attempted = 0;

    for (let cycle = 0; cycle < 3; cycle++) {
      const server = await startServer(dataDir, ['--no-demo']);
      const { operatorToken } = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { operatorToken: string };
      const base = server.summary.urls['management'] as string;

      // Four writers in parallel; kill once enough writes were acknowledged, with more in flight.
      let isKilled = false;
      const writer = async () => {
        while (!isKilled) {
          const name = `c${cycle}-w${attempted++}`;
          try {
            const res = await fetch(`${base}/admin/projects`, {
              method: 'POST',
              headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
              body: JSON.stringify({ name }),
            });
            if (res.status === 201) acknowledged.add(name);
          } catch {
            return; // the server died under this request: it may or may not have committed
          }
        }
      };
      const writers = Array.from({ length: 4 }, writer);
      const goal = acknowledged.size + 25;
      while (acknowledged.size < goal) await new Promise((r) => setTimeout(r, 5));
      server.child.kill('SIGKILL');
      isKilled = true;
      expect(await server.exited).toBe('SIGKILL');
      await Promise.all(writers);
    }

    const store = await openPgliteStore({ dataDir: join(dataDir, 'pglite') });
    try {
      const projects = await store.transaction((tx) => tx.projects.list());
      const names = new Set(projects.map((p) => p.name));
      for (const name of acknowledged) expect(names.has(name), `acknowledged write ${name} lost`).toBe(true);
      expect(acknowledged.size).toBeGreaterThanOrEqual(75);

      for (const project of projects) {
        const events = await store.transaction((tx) => tx.outbox.readAfter({ projectId: project.id, afterSeq: 0, limit: 10 }));
        expect(events.map((e) => [e.seq, e.objectKind, e.operation])).toEqual([[1, 'project', 'create']]);
        expect(await store.transaction((tx) => tx.outbox.latestSeq(project.id))).toBe(1);
      }
      const orphans = await sql<{ n: number }>`select count(*)::int as n from outbox_events e
        where not exists (select 1 from projects p where p.id = e.project_id)`.execute(store.db);
      expect(orphans.rows[0]?.n).toBe(0);
    } finally {
      await store.close();
    }
  });
});
