import { describe, expect, it } from 'vitest';
import type { Store } from '@lectern/core';

const p1 = '11111111-1111-4111-8111-111111111111';
const item = '44444444-4444-4444-8444-444444444441';
const lang = '00000000-0000-0000-0000-000000000000';
const u1 = 'a1000000-0000-4000-8000-000000000001';
const u2 = 'a2000000-0000-4000-8000-000000000002';
const tab = (n: number) => `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
const limits = { minIntervalMs: 500, maxPerUser: 3 };

/**
 * The presence repository (issue 31): one row per (user, tab), moved by heartbeats, refused when
 * too fast, capped per user, expired by time; and who saved a variant last.
 */
export function describeStorePresenceContract(store: () => Store): void {
  describe('presence', () => {
    async function seed(): Promise<void> {
      await store().transaction(async (tx) => {
        await tx.projects.insert({
          id: p1,
          name: 'P',
          environment: 'Production',
          isSecureAccess: false,
          isProduction: true,
          createdAt: at(0),
        });
        for (const id of [u1, u2])
          await tx.users.insert({ id, email: `${id}@example.com`, name: id, createdAt: at(0) });
        await tx.items.insert({
          projectId: p1,
          id: item,
          name: 'N',
          codename: 'n',
          externalId: null,
          typeId: '33333333-3333-4333-8333-333333333333',
          collectionId: lang,
          sitemapLocations: [],
          lastModified: at(0),
        });
      });
    }
    const beat = (userId: string, clientId: string, ms: number, element: string | null = null) =>
      store().transaction((tx) =>
        tx.presence.beat(
          { userId, clientId, projectId: p1, itemId: item, languageId: lang, element, at: at(ms) },
          limits,
        ),
      );
    const list = (sinceMs: number) =>
      store().transaction((tx) =>
        tx.presence.list({ projectId: p1, itemId: item, languageId: lang, since: at(sinceMs) }),
      );

    it('moves a tab on each heartbeat, refuses one too soon, and lists the fresh rows', async () => {
      await seed();
      expect(await beat(u1, tab(1), 0, 'title')).toBe('stored');
      expect(await beat(u2, tab(2), 100)).toBe('stored');
      expect(await beat(u1, tab(1), 300, 'body')).toBe('too_fast');
      expect(await beat(u1, tab(1), 600, 'body')).toBe('stored');
      const rows = await list(0);
      expect(rows.map((r) => [r.userId, r.element, r.at.getTime() - at(0).getTime()])).toEqual([
        [u2, null, 100],
        [u1, 'body', 600],
      ]);
      expect((await list(200)).map((r) => r.userId)).toEqual([u1]);
      await store().transaction((tx) => tx.presence.leave({ userId: u1, clientId: tab(1) }));
      expect((await list(0)).map((r) => r.userId)).toEqual([u2]);
      expect(await store().transaction((tx) => tx.presence.purge(at(101)))).toBe(1);
      expect(await list(0)).toEqual([]);
    });

    it('keeps at most maxPerUser tabs per user, the most recently seen', async () => {
      await seed();
      for (let n = 1; n <= 5; n++) expect(await beat(u1, tab(n), n * 10)).toBe('stored');
      expect((await list(0)).map((r) => r.clientId)).toEqual([tab(3), tab(4), tab(5)]);
    });

    it('records who saved a variant last', async () => {
      await seed();
      const ids = { projectId: p1, itemId: item, languageId: lang };
      expect(await store().transaction((tx) => tx.presence.lastSave(ids))).toBeNull();
      await store().transaction((tx) => tx.presence.recordSave({ ...ids, userId: u1, at: at(5) }));
      await store().transaction((tx) => tx.presence.recordSave({ ...ids, userId: u2, at: at(9) }));
      expect(await store().transaction((tx) => tx.presence.lastSave(ids))).toEqual({ userId: u2, at: at(9) });
    });
  });
}
