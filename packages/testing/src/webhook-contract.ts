import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord, NewWebhookNotification, Store, WebhookRecord } from '@lectern/core';

/**
 * The contract of the webhook ports (WebhookRepository, WebhookQueueRepository), run by every
 * store adapter against a real engine. `open` returns a fresh, empty, migrated store.
 */
export function describeWebhookContract(options: { engine: string; open: () => Promise<Store> }): void {
  describe(`webhook store contract on ${options.engine}`, () => {
    let store: Store;
    const p1 = '11111111-1111-4111-8111-111111111111';
    const w1 = 'aaaaaaaa-1111-4111-8111-111111111111';
    const w2 = 'bbbbbbbb-2222-4222-8222-222222222222';
    const t0 = new Date('2026-01-01T00:00:00Z');
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

    const webhook = (id: string, over: Partial<WebhookRecord> = {}): WebhookRecord => ({
      projectId: p1,
      id,
      format: 'vnext',
      name: 'Hook',
      url: 'https://example.com/hook',
      secret: 'secret',
      headers: [{ key: 'api-key', value: 'v' }],
      triggers: { slot: 'published', events: 'all' },
      isEnabled: true,
      createdAt: t0,
      lastModified: t0,
      fromSeq: 0,
      resetRequestedAt: null,
      health: 'unknown',
      failingSince: null,
      lastAcceptedAt: null,
      resetHandledAt: null,
      failureMailedAt: null,
      ...over,
    });
    let counter = 0;
    const notification = (webhookId: string, eventSeq: number, kind = 'k'): NewWebhookNotification => ({
      projectId: p1,
      webhookId,
      id: `cccccccc-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
      eventSeq,
      kind,
      body: { seq: eventSeq },
      createdAt: at(eventSeq),
    });

    beforeEach(async () => {
      store = await options.open();
      await store.transaction(async (tx) => {
        await tx.projects.insert({
          id: p1,
          name: 'P',
          environment: 'Production',
          isSecureAccess: false,
          isProduction: true,
          createdAt: t0,
        });
        await tx.webhooks.insert(webhook(w1));
        await tx.webhooks.insert(webhook(w2, { name: 'Second', format: 'legacy' }));
      });
    });
    afterEach(async () => {
      await store.close();
    });

    it('stores webhooks, lists them in creation order, and keeps each party to its columns', async () => {
      const listed = await store.transaction((tx) => tx.webhooks.list(p1));
      expect(listed.map((w) => [w.id, w.format])).toEqual([
        [w1, 'vnext'],
        [w2, 'legacy'],
      ]);
      expect(listed[0]).toEqual(webhook(w1));
      await store.transaction(async (tx) => {
        expect(await tx.webhooks.updateHealth(p1, w1, { ...webhook(w1), health: 'failing', failingSince: at(1) })).toBe(
          true,
        );
        expect(await tx.webhooks.updateRegistration(p1, w1, { ...webhook(w1), isEnabled: false, fromSeq: 7 })).toBe(
          true,
        );
      });
      const after = await store.transaction((tx) => tx.webhooks.get(p1, w1, { isForUpdate: true }));
      expect(after).toMatchObject({ isEnabled: false, fromSeq: 7, health: 'failing', failingSince: at(1) });
      const missing = 'dddddddd-0000-4000-8000-000000000000';
      expect(await store.transaction((tx) => tx.webhooks.updateRegistration(p1, missing, webhook(missing)))).toBe(
        false,
      );
      expect(await store.transaction((tx) => tx.webhooks.get(p1, missing))).toBeNull();
    });

    it('enqueues each (webhook, event, kind) once, whatever is redelivered', async () => {
      const first = [notification(w1, 1), notification(w1, 1, 'other'), notification(w2, 1)];
      expect(await store.transaction((tx) => tx.webhookQueue.enqueue(first))).toBe(3);
      // The same event again, with fresh message ids: nothing new.
      const again = [notification(w1, 1), notification(w2, 1), notification(w1, 2)];
      expect(await store.transaction((tx) => tx.webhookQueue.enqueue(again))).toBe(1);
      expect(await store.transaction((tx) => tx.webhookQueue.depth())).toEqual({
        pending: 4,
        delivered: 0,
        expired: 0,
      });
      await store.transaction((tx) => tx.webhookQueue.advanceProgress(p1, 5));
      await store.transaction((tx) => tx.webhookQueue.advanceProgress(p1, 3));
      expect(await store.transaction((tx) => tx.webhookQueue.progress(p1))).toBe(5);
    });

    it('leases a webhook to one owner at a time while its head is due, and delivers the queue in order', async () => {
      await store.transaction((tx) =>
        tx.webhookQueue.enqueue([notification(w1, 1), notification(w1, 2), notification(w1, 3)]),
      );
      const now = at(10);
      const claimed = await store.transaction((tx) =>
        tx.webhookQueue.claim({ owner: 'a', now, until: at(11), limit: 10 }),
      );
      expect(claimed).toEqual([{ projectId: p1, id: w1 }]);
      expect(
        await store.transaction((tx) => tx.webhookQueue.claim({ owner: 'b', now, until: at(11), limit: 10 })),
      ).toEqual([]);
      const due = await store.transaction((tx) => tx.webhookQueue.due({ projectId: p1, webhookId: w1, now, limit: 2 }));
      expect(due.map((n) => n.eventSeq)).toEqual([1, 2]);

      // The head fails: it waits for its retry, and everything behind it waits too.
      await store.transaction((tx) =>
        tx.webhookQueue.recordAttempt({
          ids: [due[0]!.id],
          at: now,
          status: 500,
          response: 'boom',
          isAccepted: false,
          durationMs: 12,
          nextAttemptAt: at(11),
        }),
      );
      expect(
        await store.transaction((tx) => tx.webhookQueue.due({ projectId: p1, webhookId: w1, now, limit: 9 })),
      ).toEqual([]);
      await store.transaction((tx) => tx.webhookQueue.release({ projectId: p1, webhookId: w1, owner: 'a' }));
      expect(
        await store.transaction((tx) => tx.webhookQueue.claim({ owner: 'b', now, until: at(11), limit: 10 })),
      ).toEqual([]);
      expect(await store.transaction((tx) => tx.webhookQueue.nextDueAt())).toEqual(at(11));
      // At the retry time the head is due, and another owner takes the free lease.
      expect(
        await store.transaction((tx) => tx.webhookQueue.claim({ owner: 'b', now: at(11), until: at(12), limit: 10 })),
      ).toEqual([{ projectId: p1, id: w1 }]);
      const retry = await store.transaction((tx) =>
        tx.webhookQueue.due({ projectId: p1, webhookId: w1, now: at(11), limit: 9 }),
      );
      expect(retry.map((n) => [n.eventSeq, n.attempts, n.lastStatus])).toEqual([
        [1, 1, 500],
        [2, 0, null],
        [3, 0, null],
      ]);
      await store.transaction((tx) =>
        tx.webhookQueue.recordAttempt({
          ids: retry.map((n) => n.id),
          at: at(11),
          status: 204,
          response: '',
          isAccepted: true,
          durationMs: 3,
          nextAttemptAt: null,
        }),
      );
      expect(await store.transaction((tx) => tx.webhookQueue.depth())).toEqual({
        pending: 0,
        delivered: 3,
        expired: 0,
      });
      const listed = await store.transaction((tx) =>
        tx.webhookQueue.list({ projectId: p1, webhookId: w1, since: t0, filter: 'failed', limit: 10 }),
      );
      expect(listed.map((n) => [n.eventSeq, n.attempts, n.state, n.hasFailed])).toEqual([[1, 2, 'delivered', true]]);
      const all = await store.transaction((tx) =>
        tx.webhookQueue.list({ projectId: p1, webhookId: w1, since: t0, filter: 'all', limit: 10 }),
      );
      expect(all.map((n) => n.eventSeq)).toEqual([3, 2, 1]);
    });

    it('claims each management key expiry notice once', async () => {
      const key = (id: string, over: Partial<ApiKeyRecord>): ApiKeyRecord => ({
        id,
        projectId: p1,
        kind: 'management',
        ownerUserId: null,
        secretHash: 'ab'.repeat(32),
        createdAt: t0,
        expiresAt: at(3 * 24 * 60),
        revokedAt: null,
        ...over,
      });
      await store.transaction(async (tx) => {
        const user = async (email: string) =>
          (await tx.users.insert({ id: crypto.randomUUID(), email, name: email, createdAt: t0 })).id;
        await tx.apiKeys.insert(key('eeeeeeee-0000-4000-8000-000000000001', { ownerUserId: await user('a@x.test') }));
        await tx.apiKeys.insert(
          key('eeeeeeee-0000-4000-8000-000000000002', {
            ownerUserId: await user('b@x.test'),
            expiresAt: at(9 * 24 * 60),
          }),
        );
        await tx.apiKeys.insert(
          key('eeeeeeee-0000-4000-8000-000000000003', { ownerUserId: await user('c@x.test'), revokedAt: t0 }),
        );
      });
      const claim = () =>
        store.transaction((tx) => tx.notices.claimKeyExpiryNotices({ now: t0, until: at(5 * 24 * 60) }));
      const [first, second] = await Promise.all([claim(), claim()]);
      expect([...(first ?? []), ...(second ?? [])].map((k) => [k.keyId, k.expiresAt])).toEqual([
        ['eeeeeeee-0000-4000-8000-000000000001', at(3 * 24 * 60)],
      ]);
      expect(await claim()).toEqual([]);
    });

    it('does not lease a disabled or dead webhook, discards, requeues, expires and purges', async () => {
      await store.transaction((tx) => tx.webhookQueue.enqueue([notification(w1, 1), notification(w1, 2)]));
      await store.transaction((tx) => tx.webhooks.updateRegistration(p1, w1, { ...webhook(w1), isEnabled: false }));
      expect(
        await store.transaction((tx) => tx.webhookQueue.claim({ owner: 'a', now: at(5), until: at(6), limit: 9 })),
      ).toEqual([]);
      await store.transaction((tx) => tx.webhooks.updateRegistration(p1, w1, webhook(w1)));
      await store.transaction((tx) => tx.webhooks.updateHealth(p1, w1, { ...webhook(w1), health: 'dead' }));
      expect(
        await store.transaction((tx) => tx.webhookQueue.claim({ owner: 'a', now: at(5), until: at(6), limit: 9 })),
      ).toEqual([]);
      expect(await store.transaction((tx) => tx.webhookQueue.healthCounts())).toEqual({
        unknown: 1,
        working: 0,
        failing: 0,
        dead: 1,
      });

      const [head] = await store.transaction((tx) =>
        tx.webhookQueue.due({ projectId: p1, webhookId: w1, now: at(5), limit: 1 }),
      );
      await store.transaction((tx) =>
        tx.webhookQueue.recordAttempt({
          ids: [head!.id],
          at: at(5),
          status: null,
          response: 'timed out',
          isAccepted: false,
          durationMs: 60_000,
          nextAttemptAt: null,
        }),
      );
      expect(await store.transaction((tx) => tx.webhookQueue.discardPending(p1, w1))).toBe(1);
      expect(await store.transaction((tx) => tx.webhookQueue.depth())).toEqual({
        pending: 0,
        delivered: 0,
        expired: 1,
      });
      expect(
        await store.transaction((tx) =>
          tx.webhookQueue.requeueLastFailed({ projectId: p1, webhookId: w1, now: at(7) }),
        ),
      ).toBe(true);
      expect(
        await store.transaction((tx) =>
          tx.webhookQueue.requeueLastFailed({ projectId: p1, webhookId: w2, now: at(7) }),
        ),
      ).toBe(false);
      const requeued = await store.transaction((tx) =>
        tx.webhookQueue.list({ projectId: p1, webhookId: w1, since: t0, filter: 'failing', limit: 9 }),
      );
      expect(requeued.map((n) => [n.id, n.state, n.firstAttemptAt, n.nextAttemptAt])).toEqual([
        [head!.id, 'pending', null, at(7)],
      ]);

      await store.transaction((tx) => tx.webhookQueue.enqueue([notification(w2, 3)]));
      expect(await store.transaction((tx) => tx.webhookQueue.purge(at(100)))).toBe(0);

      await store.transaction((tx) =>
        tx.webhooks.updateHealth(p1, w2, { ...webhook(w2), health: 'failing', failingSince: at(10) }),
      );
      expect(await store.transaction((tx) => tx.webhookQueue.declareDead(at(9)))).toBe(0);
      expect(await store.transaction((tx) => tx.webhookQueue.declareDead(at(10)))).toBe(1);
      expect((await store.transaction((tx) => tx.webhooks.get(p1, w2)))?.health).toBe('dead');
      expect((await store.transaction((tx) => tx.webhookQueue.depth())).pending).toBe(1);
      await store.transaction((tx) => tx.webhooks.updateHealth(p1, w2, webhook(w2)));
      // An outcome recorded after its webhook was deleted (a POST under way) changes nothing.
      const [orphan] = await store.transaction((tx) =>
        tx.webhookQueue.due({ projectId: p1, webhookId: w1, now: at(9), limit: 1 }),
      );
      expect(await store.transaction((tx) => tx.webhooks.delete(p1, w1))).toBe(true);
      await store.transaction((tx) =>
        tx.webhookQueue.recordAttempt({
          ids: [orphan!.id],
          at: at(9),
          status: 200,
          response: '',
          isAccepted: true,
          durationMs: 1,
          nextAttemptAt: null,
        }),
      );
      expect(await store.transaction((tx) => tx.webhooks.delete(p1, w1))).toBe(false);
      // w1's queue went with it; w2's untried notification went when it was declared dead.
      expect(await store.transaction((tx) => tx.webhookQueue.depth())).toEqual({
        pending: 0,
        delivered: 0,
        expired: 0,
      });
    });
  });
}
