import { describe, expect, it } from 'vitest';
import type { Store } from '@lectern/core';

const p1 = '11111111-1111-4111-8111-111111111111';
const taskId = (n: number) => `7a5c0000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

/** The background task part of the store contract (`store` is the contract's fresh store). */
export function describeStoreTaskContract(store: () => Store): void {
  describe('background tasks', () => {
    async function seed(count: number): Promise<void> {
      await store().transaction(async (tx) => {
        await tx.projects.insert({
          id: p1,
          name: 'P',
          environment: 'Production',
          isSecureAccess: false,
          isProduction: true,
          createdAt: at(0),
        });
        for (let n = 1; n <= count; n += 1)
          await tx.backgroundTasks.insert({
            id: taskId(n),
            projectId: p1,
            kind: 'validation',
            input: { n },
            createdAt: at(n),
          });
      });
    }
    const claim = (owner: string, now: Date, leaseSeconds = 30) =>
      store().transaction((tx) =>
        tx.backgroundTasks.claim({ owner, now, leaseUntil: new Date(now.getTime() + leaseSeconds * 1000) }),
      );

    it('claims each queued task once, oldest first, while concurrent claimers skip held ones', async () => {
      await seed(6);
      const claimed = await Promise.all(Array.from({ length: 8 }, (_, i) => claim(`runner-${i}`, at(10))));
      const ids = claimed.flatMap((t) => (t ? [t.id] : []));
      expect(ids.sort()).toEqual([1, 2, 3, 4, 5, 6].map(taskId));
      expect(claimed.filter((t) => t === null)).toHaveLength(2);
      const first = claimed.find((t) => t?.id === taskId(1));
      expect(first).toMatchObject({ status: 'running', attempts: 1, input: { n: 1 }, progress: { done: 0, total: 0 } });
    });

    it('fences a runner whose lease another took over: its progress and completion are refused', async () => {
      await seed(1);
      const a = await claim('a', at(10));
      expect(a?.leaseOwner).toBe('a');
      expect(await claim('b', at(20))).toBeNull();
      const advanced = await store().transaction((tx) =>
        tx.backgroundTasks.advance({
          id: taskId(1),
          owner: 'a',
          state: { page: 2 },
          progress: { done: 2, total: 5 },
          now: at(20),
          leaseUntil: at(50),
        }),
      );
      expect(advanced).toBe(true);
      // A stops; after its lease ended B takes over where A's last step left the task.
      const b = await claim('b', at(51));
      expect(b).toMatchObject({ leaseOwner: 'b', attempts: 2, state: { page: 2 }, progress: { done: 2, total: 5 } });
      const late = { id: taskId(1), owner: 'a', now: at(52) };
      expect(
        await store().transaction((tx) =>
          tx.backgroundTasks.advance({ ...late, state: {}, progress: { done: 5, total: 5 }, leaseUntil: at(90) }),
        ),
      ).toBe(false);
      expect(
        await store().transaction((tx) => tx.backgroundTasks.complete({ ...late, status: 'failed', error: 'x' })),
      ).toBe(false);
      expect(
        await store().transaction((tx) =>
          tx.backgroundTasks.complete({ id: taskId(1), owner: 'b', status: 'finished', error: null, now: at(53) }),
        ),
      ).toBe(true);
      expect(await store().transaction((tx) => tx.backgroundTasks.get(taskId(1)))).toMatchObject({
        status: 'finished',
        leaseOwner: null,
        progress: { done: 2, total: 5 },
      });
      expect(await claim('c', at(200))).toBeNull();
    });

    it('prunes ended tasks older than the given time, and deletes tasks with their project', async () => {
      await seed(2);
      const t = await claim('a', at(10));
      await store().transaction((tx) =>
        tx.backgroundTasks.complete({ id: t?.id ?? '', owner: 'a', status: 'finished', error: null, now: at(11) }),
      );
      expect(await store().transaction((tx) => tx.backgroundTasks.prune(at(12)))).toBe(1);
      expect(await store().transaction((tx) => tx.backgroundTasks.get(taskId(1)))).toBeNull();
      await store().transaction((tx) => tx.projects.delete(p1));
      expect(await store().transaction((tx) => tx.backgroundTasks.get(taskId(2)))).toBeNull();
    });
  });
}
