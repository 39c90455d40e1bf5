import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signatureHelper } from '@kontent-ai/webhook-helper';
import {
  addTaxonomy,
  addWebhook,
  getWebhook,
  listWebhookNotifications,
  operator,
  resetWebhook,
  setWebhookEnabled,
} from '@lectern/core';
import { createHttpSender } from './http-sender.ts';
import { materialiseEvents } from './materialise.ts';
import { retryDelaysMs } from './retry-policy.ts';
import { openTestCore, seedProject, startTestReceiver, type TestCore, type TestReceiver } from '@lectern/testing';
import { createWebhookWorker, type WebhookWorker } from './worker.ts';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const secret = 'hx3snVrI9E2Lgpi1LaL+WfiPWCh88OjI7Bv/3ihq+Qo=';

let core: TestCore;
let projectId: string;
let receiver: TestReceiver;
let worker: WebhookWorker;
const workers: WebhookWorker[] = [];

const newWorker = (options: { timeoutMs?: number } = {}) => {
  const w = createWebhookWorker({
    store: core.store,
    clock: core.clock,
    ids: core.ids,
    send: createHttpSender({ isPrivateAllowed: true, timeoutMs: options.timeoutMs ?? 10_000 }),
    onError: (error) => {
      throw error;
    },
  });
  workers.push(w);
  return w;
};

beforeEach(async () => {
  core = await openTestCore();
  projectId = (await seedProject(core, [])).projectId;
  receiver = await startTestReceiver();
  worker = newWorker();
});
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  await receiver.close();
  await core.store.close();
});

const actor = operator;
const register = (url: string, over: Record<string, unknown> = {}) =>
  addWebhook(core, {
    actor,
    projectId,
    format: 'vnext',
    body: {
      name: 'Taxonomies',
      url,
      secret,
      headers: [
        { key: 'api-key', value: 'one' },
        { key: 'api-key', value: 'two' },
      ],
      delivery_triggers: {
        slot: 'published',
        events: 'specific',
        taxonomy: { enabled: true, actions: [{ action: 'created' }] },
      },
      ...over,
    },
  });
const taxonomy = (codename: string) =>
  addTaxonomy(core, { actor, projectId, body: { name: codename, codename, terms: [] } });
const codenamesReceived = () =>
  receiver.received.flatMap((r) =>
    (r.json['notifications'] as { data: { system: { codename: string } } }[]).map((n) => n.data.system.codename),
  );

describe('the webhook worker', () => {
  it('delivers signed, batched current-format notifications in creation order, with custom headers', async () => {
    const hook = await register(receiver.url);
    await taxonomy('before_none'); // matched, but the first event after registration is the next one
    await worker.catchUp();
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(1);
    for (const c of ['a', 'b', 'c']) await taxonomy(c);
    await worker.catchUp();
    await worker.deliverDue();
    expect(codenamesReceived()).toEqual(['before_none', 'a', 'b', 'c']);
    const batch = receiver.received[1];
    expect((batch?.json['notifications'] as unknown[]).length).toBe(3);
    for (const r of receiver.received) {
      const signature = r.headers['x-kontent-ai-signature'] as string;
      expect(r.headers['x-kc-signature']).toBe(signature);
      expect(signatureHelper.isValidSignatureFromString(r.text, secret, signature)).toBe(true);
      expect(signatureHelper.isValidSignatureFromString(r.text, 'other', signature)).toBe(false);
      expect(r.headers['api-key']).toBe('one, two');
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.text).toContain('\r\n');
    }
    expect((batch?.json['notifications'] as unknown[])[0]).toMatchObject({
      data: { system: { codename: 'a', name: 'a' } },
      message: { environment_id: projectId, object_type: 'taxonomy', action: 'created', delivery_slot: 'published' },
    });
    const after = await getWebhook(core, { actor, projectId, format: 'vnext', id: hook.id });
    expect(after.health).toBe('working');
  });

  it('stores each (event, webhook) once however often the events come, and replicas deliver each once', async () => {
    await register(receiver.url);
    for (const c of ['a', 'b']) await taxonomy(c);
    const events = await core.store.transaction((tx) => tx.outbox.readAfter({ projectId, afterSeq: 0, limit: 99 }));
    expect(await materialiseEvents({ store: core.store, ids: core.ids, events })).toBe(2);
    expect(await materialiseEvents({ store: core.store, ids: core.ids, events })).toBe(0);
    await worker.catchUp();
    const other = newWorker();
    await Promise.all([worker.deliverDue(), other.deliverDue(), worker.deliverDue()]);
    expect(codenamesReceived()).toEqual(['a', 'b']);
  });

  it('sends the legacy format to a webhook registered through /webhooks', async () => {
    await addWebhook(core, {
      actor,
      projectId,
      format: 'legacy',
      body: {
        name: 'Legacy',
        url: receiver.url,
        secret,
        triggers: { delivery_api_content_changes: [{ type: 'taxonomy', operations: ['upsert'] }] },
      },
    });
    const created = await taxonomy('legacy_one');
    await worker.catchUp();
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(1);
    const r = receiver.received[0];
    expect(r?.json).toEqual({
      data: { items: [], taxonomies: [{ id: created.id, codename: 'legacy_one' }] },
      message: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        project_id: projectId,
        type: 'taxonomy',
        operation: 'upsert',
        api_name: 'delivery_production',
        created_timestamp: core.clock.now().toISOString(),
        webhook_url: receiver.url,
      },
    });
    expect(
      signatureHelper.isValidSignatureFromString(r?.text ?? '', secret, r?.headers['x-kc-signature'] as string),
    ).toBe(true);
  });

  it('keeps order and loses nothing while the receiver is down, retrying on the schedule', async () => {
    const hook = await register(receiver.url);
    receiver.status = 503;
    await taxonomy('first');
    await worker.catchUp();
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(1);
    await taxonomy('second'); // queued behind the failing head
    await worker.catchUp();
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(1);
    core.clock.advance(minute - 1);
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(1);
    core.clock.advance(1);
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(2);
    // The retry carries the same notifications under the same stable ids, then the one behind.
    const firstIds = String(receiver.received[0]?.headers['x-lectern-notification-ids']).split(',');
    const retryIds = String(receiver.received[1]?.headers['x-lectern-notification-ids']).split(',');
    expect(firstIds).toHaveLength(1);
    expect(retryIds[0]).toBe(firstIds[0]);
    expect(retryIds).toHaveLength(2);
    const failing = await getWebhook(core, { actor, projectId, format: 'vnext', id: hook.id });
    expect(failing.health).toBe('failing');
    const debug = await listWebhookNotifications(core, {
      actor,
      projectId,
      format: 'vnext',
      id: hook.id,
      filter: 'failing',
    });
    expect(debug.map((n) => [n.attempts, n.lastStatus, n.lastResponse])).toEqual([
      [1, 503, 'answer 503'],
      [2, 503, 'answer 503'],
    ]);
    receiver.status = 200;
    core.clock.advance(2 * minute);
    await worker.deliverDue();
    expect(receiver.received.at(-1)?.status).toBe(200);
    expect(codenamesReceived().filter((_, i, all) => all.indexOf(_) === i)).toEqual(['first', 'second']);
    expect(receiver.received.at(-1)?.json['notifications']).toHaveLength(2);
    expect((await getWebhook(core, { actor, projectId, format: 'vnext', id: hook.id })).health).toBe('working');
  });

  it('walks the retry schedule, removes a notification after 3 days, and declares the webhook dead after 7', async () => {
    const hook = await register(receiver.url);
    receiver.status = 500;
    await taxonomy('doomed');
    await worker.catchUp();
    await worker.deliverDue();
    const started = core.clock.now().getTime();
    for (const delay of retryDelaysMs) {
      core.clock.advance(delay);
      await worker.deliverDue();
    }
    expect(receiver.received).toHaveLength(1 + retryDelaysMs.length);
    while (core.clock.now().getTime() - started < 3 * day) {
      core.clock.advance(hour);
      await worker.deliverDue();
    }
    const attempts = receiver.received.length;
    // 1 + 7 scheduled retries (2 h 3 min), then hourly until the 3 days are over.
    expect(attempts).toBe(1 + retryDelaysMs.length + Math.floor((3 * day - 123 * minute) / hour));
    core.clock.advance(hour);
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(attempts);
    // Removed from the queue (and, older than the debug list's 3 days, gone from it too).
    expect((await core.store.transaction((tx) => tx.webhookQueue.depth())).pending).toBe(0);

    // Still failing: a new notification fails too; 7 days after the first failure the webhook is
    // dead, even with nothing more tried.
    core.clock.set(new Date(started + 7 * day - hour));
    await taxonomy('late');
    await worker.catchUp();
    await worker.deliverDue();
    expect((await getWebhook(core, { actor, projectId, format: 'vnext', id: hook.id })).health).toBe('failing');
    core.clock.advance(hour - minute);
    await worker.deliverDue();
    expect((await getWebhook(core, { actor, projectId, format: 'vnext', id: hook.id })).health).toBe('failing');
    const attemptsBefore = receiver.received.length;
    core.clock.advance(minute);
    await worker.deliverDue();
    expect((await getWebhook(core, { actor, projectId, format: 'vnext', id: hook.id })).health).toBe('dead');
    expect(receiver.received).toHaveLength(attemptsBefore);
    const sent = receiver.received.length;
    await taxonomy('ignored');
    await worker.catchUp();
    core.clock.advance(day);
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(sent);

    // Reset: the last failed notification is sent again and the webhook recovers.
    receiver.status = 200;
    await resetWebhook(core, { actor, projectId, format: 'vnext', id: hook.id });
    await worker.deliverDue();
    expect(receiver.received).toHaveLength(sent + 1);
    expect(codenamesReceived().at(-1)).toBe('late');
    expect((await getWebhook(core, { actor, projectId, format: 'vnext', id: hook.id })).health).toBe('working');
  });

  it('never makes a webhook wait behind another one that hangs, and drops what a disable leaves unsent', async () => {
    const hanging = await startTestReceiver();
    hanging.isHanging = true;
    try {
      const slowWorker = newWorker({ timeoutMs: 2_000 });
      await register(hanging.url);
      const fast = await register(receiver.url);
      await taxonomy('t1');
      await slowWorker.catchUp();
      const pass = slowWorker.deliverDue();
      await receiver.waitFor(1, 1_500);
      await pass;
      expect(codenamesReceived()).toEqual(['t1']);

      receiver.status = 500;
      await taxonomy('t2');
      await slowWorker.catchUp();
      await slowWorker.deliverDue();
      await setWebhookEnabled(core, { actor, projectId, format: 'vnext', id: fast.id, isEnabled: false });
      await setWebhookEnabled(core, { actor, projectId, format: 'vnext', id: fast.id, isEnabled: true });
      receiver.status = 200;
      core.clock.advance(hour);
      await slowWorker.deliverDue();
      expect(codenamesReceived()).toEqual(['t1', 't2']);
    } finally {
      await hanging.close();
    }
  });
});
