import { describe, expect, it } from 'vitest';
import type { Store } from '@lectern/core';

const p1 = '11111111-1111-4111-8111-111111111111';
const p2 = '22222222-2222-4222-8222-222222222222';
const file = '0f000000-0000-4000-8000-000000000001';
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

/**
 * The store's ledgers of blobs (issue 27): the transformed-image cache and the journal of uploads
 * in flight (`store` is the contract's fresh store).
 */
export function describeStoreBlobLedgerContract(store: () => Store): void {
  describe('blob ledgers', () => {
    async function seedProjects(): Promise<void> {
      await store().transaction(async (tx) => {
        for (const id of [p1, p2])
          await tx.projects.insert({
            id,
            name: 'P',
            environment: 'Production',
            isSecureAccess: false,
            isProduction: true,
            createdAt: at(0),
          });
      });
    }
    const entry = (projectId: string, key: string, bytes: number, usedAt: number) => ({
      projectId,
      key,
      fileId: file,
      contentType: 'image/webp',
      bytes,
      lastUsedAt: at(usedAt),
    });

    it('keeps image cache entries per project: totals, least recently used first, touch, replace, delete', async () => {
      await seedProjects();
      await store().transaction(async (tx) => {
        await tx.imageCache.put(entry(p1, 'a', 100, 1));
        await tx.imageCache.put(entry(p1, 'b', 3_000_000_000, 2));
        await tx.imageCache.put(entry(p1, 'c', 50, 3));
        await tx.imageCache.put(entry(p2, 'a', 7, 0));
      });
      expect(await store().transaction((tx) => tx.imageCache.totalBytes(p1))).toBe(3_000_000_150);
      const none = '33333333-3333-4333-8333-333333333333';
      expect(await store().transaction((tx) => tx.imageCache.totalBytes(none))).toBe(0);
      await store().transaction((tx) => tx.imageCache.touch(p1, 'a', at(10)));
      const order = await store().transaction((tx) => tx.imageCache.leastRecentlyUsed(p1, 10));
      expect(order.map((e) => e.key)).toEqual(['b', 'c', 'a']);
      expect(order[0]).toEqual(entry(p1, 'b', 3_000_000_000, 2));
      expect(await store().transaction((tx) => tx.imageCache.leastRecentlyUsed(p1, 1))).toHaveLength(1);
      await store().transaction((tx) => tx.imageCache.put(entry(p1, 'c', 60, 20)));
      expect(await store().transaction((tx) => tx.imageCache.get(p1, 'c'))).toEqual(entry(p1, 'c', 60, 20));
      await store().transaction((tx) => tx.imageCache.delete(p1, ['a', 'b', 'missing']));
      expect(await store().transaction((tx) => tx.imageCache.get(p1, 'a'))).toBeNull();
      expect(await store().transaction((tx) => tx.imageCache.totalBytes(p1))).toBe(60);
      expect(await store().transaction((tx) => tx.imageCache.get(p2, 'a'))).toEqual(entry(p2, 'a', 7, 0));
    });

    it('journals uploads in flight and lists those begun before a time, oldest first', async () => {
      await store().transaction(async (tx) => {
        await tx.pendingUploads.begin({ key: `${p1}/new`, projectId: p1, startedAt: at(50) });
        await tx.pendingUploads.begin({ key: `${p1}/old`, projectId: p1, startedAt: at(5) });
        await tx.pendingUploads.begin({ key: `${p2}/older`, projectId: p2, startedAt: at(1) });
      });
      expect(await store().transaction((tx) => tx.pendingUploads.startedBefore(at(10), 10))).toEqual([
        { key: `${p2}/older`, projectId: p2 },
        { key: `${p1}/old`, projectId: p1 },
      ]);
      await store().transaction((tx) => tx.pendingUploads.end(`${p2}/older`));
      await store().transaction((tx) => tx.pendingUploads.end('absent'));
      expect(await store().transaction((tx) => tx.pendingUploads.startedBefore(at(100), 10))).toEqual([
        { key: `${p1}/old`, projectId: p1 },
        { key: `${p1}/new`, projectId: p1 },
      ]);
    });
  });
}
