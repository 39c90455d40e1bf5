import type { ChangeEvent, IdSource, NewWebhookNotification, Store, UnitOfWork, WebhookRecord } from '@lectern/core';
import { notificationKinds } from './event-map.ts';
import { legacyKinds, legacyNotification, matchesLegacyTriggers } from './legacy-format.ts';
import { currentNotification, EventFacts } from './notification-body.ts';
import { notifiedEvents } from './snippet-users.ts';
import { matchesTriggers } from './trigger-match.ts';

/** Events read from the outbox per query when filling a gap or catching up. */
const outboxPage = 500;

/**
 * Turns one project's change events into notifications for its matching webhooks and stores them,
 * with the project's progress, in one transaction: once it has committed the events may be
 * acknowledged. Events at or below the progress are skipped (a redelivery), events the delivery
 * skipped over are read from the outbox first, and the queue's unique key makes each (webhook,
 * event, kind) one notification whatever happens. Returns how many notifications were new.
 */
export async function materialiseEvents(options: {
  store: Store;
  ids: IdSource;
  events: readonly ChangeEvent[];
}): Promise<number> {
  const last = options.events.at(-1);
  if (last === undefined) return 0;
  const projectId = last.projectId;
  return options.store.transaction(async (tx) => {
    const progress = await tx.webhookQueue.progress(projectId);
    if (last.seq <= progress) return 0;
    const fresh = options.events.filter((e) => e.seq > progress);
    const first = fresh[0]?.seq ?? last.seq;
    const missing = first > progress + 1 ? await readOutbox(tx, { projectId, after: progress, upTo: first - 1 }) : [];
    const webhooks = (await tx.webhooks.list(projectId)).filter((w) => w.isEnabled && w.health !== 'dead');
    const notifications: NewWebhookNotification[] = [];
    for (const event of [...missing, ...fresh])
      notifications.push(...(await notificationsOf(tx, { event, webhooks, ids: options.ids })));
    const created = await tx.webhookQueue.enqueue(notifications);
    await tx.webhookQueue.advanceProgress(projectId, last.seq);
    return created;
  });
}

/** Catches one project up from the outbox: every event after its progress. Returns the notifications created. */
export async function catchUpProject(options: { store: Store; ids: IdSource; projectId: string }): Promise<number> {
  // Nothing at or below every webhook's `fromSeq` can be notified: skip it without reading it
  // (all of the outbox when the project has no webhook), so a first start on a large store is quick.
  await options.store.transaction(async (tx) => {
    const { projectId } = options;
    const progress = await tx.webhookQueue.progress(projectId);
    const webhooks = (await tx.webhooks.list(projectId)).filter((w) => w.isEnabled && w.health !== 'dead');
    const floor =
      webhooks.length === 0 ? await tx.outbox.latestSeq(projectId) : Math.min(...webhooks.map((w) => w.fromSeq));
    if (floor > progress) await tx.webhookQueue.advanceProgress(projectId, floor);
  });
  let created = 0;
  for (;;) {
    const events = await options.store.transaction(async (tx) =>
      tx.outbox.readAfter({
        projectId: options.projectId,
        afterSeq: await tx.webhookQueue.progress(options.projectId),
        limit: outboxPage,
      }),
    );
    if (events.length === 0) return created;
    created += await materialiseEvents({ ...options, events });
  }
}

async function readOutbox(
  tx: UnitOfWork,
  options: { projectId: string; after: number; upTo: number },
): Promise<ChangeEvent[]> {
  const result: ChangeEvent[] = [];
  let after = options.after;
  while (after < options.upTo) {
    const page = await tx.outbox.readAfter({
      projectId: options.projectId,
      afterSeq: after,
      limit: Math.min(outboxPage, options.upTo - after),
    });
    if (page.length === 0) break;
    result.push(...page);
    after = page.at(-1)?.seq ?? options.upTo;
  }
  return result;
}

async function notificationsOf(
  tx: UnitOfWork,
  options: { event: ChangeEvent; webhooks: readonly WebhookRecord[]; ids: IdSource },
): Promise<NewWebhookNotification[]> {
  const { event, ids } = options;
  const webhooks = options.webhooks.filter((w) => event.seq > w.fromSeq);
  if (webhooks.length === 0) return [];
  const base = (w: WebhookRecord) => ({
    projectId: event.projectId,
    webhookId: w.id,
    eventSeq: event.seq,
    createdAt: event.occurredAt,
  });
  const result: NewWebhookNotification[] = [];
  const current = webhooks.filter((w) => w.format === 'vnext');
  // One event may stand for several objects (a snippet for the types using it): their kinds name them.
  for (const notified of current.length > 0 ? await notifiedEvents(tx, event) : []) {
    const facts = new EventFacts(tx, notified);
    const of = notified === event ? '' : `:${notified.objectId}`;
    for (const kind of notificationKinds(notified)) {
      const subject = facts.subject(kind);
      const matching = current.filter((w) => matchesTriggers(w.triggers, subject));
      if (matching.length === 0) continue;
      const body = await currentNotification(facts, kind);
      for (const w of matching)
        result.push({ ...base(w), id: ids.uuid(), kind: `${kind.objectType}:${kind.action}:${kind.slot}${of}`, body });
    }
  }
  const legacy = webhooks.filter((w) => w.format === 'legacy');
  const facts = new EventFacts(tx, event);
  if (legacy.length > 0)
    for (const kind of legacyKinds(event))
      for (const w of legacy.filter((x) => matchesLegacyTriggers(x.triggers, kind, event))) {
        const id = ids.uuid();
        result.push({
          ...base(w),
          id,
          kind: `${kind.list}:${kind.type}:${kind.operation}`,
          body: await legacyNotification(facts, kind, { id }),
        });
      }
  return result;
}
