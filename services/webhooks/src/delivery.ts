import type { Clock, Store, WebhookNotification, WebhookRecord } from '@lectern/core';
import type { Sender, SendOutcome } from './http-sender.ts';
import { projectApiManagers, webhookMail, type MailSender, type WebhookMailKind } from './mail.ts';
import { deadAfterMs, healthAfterAttempt, nextAttemptAt } from './retry-policy.ts';
import { notificationBody, signatureHeaders } from './signature.ts';

/** What one POST carried and how it went, for metrics. */
export interface AttemptReport {
  readonly webhook: WebhookRecord;
  readonly notifications: readonly WebhookNotification[];
  readonly outcome: SendOutcome;
  readonly at: Date;
}

/**
 * The request of a batch: the current format batches every notification under `notifications`;
 * the legacy format sends one notification, with the webhook's URL in its message. Custom headers
 * of one key are merged (`key: v1, v2`); the signature goes under both header names, and
 * `x-lectern-notification-ids` lists the notifications' stable ids.
 */
export function buildRequest(webhook: WebhookRecord, batch: readonly WebhookNotification[]) {
  let payload: object;
  if (webhook.format === 'vnext') payload = { notifications: batch.map((n) => n.body) };
  else {
    const n = batch[0] as WebhookNotification;
    const message = n.body['message'] as Record<string, unknown>;
    payload = { data: n.body['data'], message: { ...message, webhook_url: webhook.url } };
  }
  const body = notificationBody(payload);
  const custom = new Map<string, { key: string; values: string[] }>();
  for (const h of webhook.headers) {
    const entry = custom.get(h.key.toLowerCase()) ?? { key: h.key, values: [] };
    entry.values.push(h.value);
    custom.set(h.key.toLowerCase(), entry);
  }
  const headers: Record<string, string> = {
    ...Object.fromEntries([...custom.values()].map((e) => [e.key, e.values.join(', ')])),
    'content-type': 'application/json; charset=utf-8',
    // The stable ids of what the POST carries, in order: a receiver can drop repeats (at-least-once).
    'x-lectern-notification-ids': batch.map((n) => n.id).join(','),
    ...signatureHeaders(body, webhook.secret),
  };
  return { url: webhook.url, headers, body };
}

/**
 * Delivers one leased webhook's due notifications, oldest first, batch after batch, until its
 * queue is empty or an attempt fails (the failed head holds back the later ones until its retry).
 * Each outcome is recorded with the webhook's health in one transaction. Returns the batches sent.
 */
export async function drainWebhook(options: {
  store: Store;
  clock: Clock;
  send: Sender;
  projectId: string;
  webhookId: string;
  maxBatch: number;
  /** Extends the lease before each POST; false: the lease was lost, stop. */
  renew: () => Promise<boolean>;
  onAttempt?: (report: AttemptReport) => void;
  /** Sends the e-mails of SPEC 6.7; none: no e-mail. */
  mail?: MailSender;
  onError?: (error: unknown, what: string) => void;
}): Promise<number> {
  const { store, clock, projectId, webhookId } = options;
  let sent = 0;
  for (;;) {
    const now = clock.now();
    const webhook = await store.transaction((tx) => tx.webhooks.get(projectId, webhookId));
    if (webhook === null || !webhook.isEnabled || webhook.health === 'dead') return sent;
    if (webhook.failingSince !== null && now.getTime() - webhook.failingSince.getTime() >= deadAfterMs) {
      await markDead(store, webhook);
      return sent;
    }
    const limit = webhook.format === 'vnext' ? options.maxBatch : 1;
    const batch = await store.transaction((tx) => tx.webhookQueue.due({ projectId, webhookId, now, limit }));
    if (batch.length === 0 || !(await options.renew())) return sent;
    const outcome = await options.send(buildRequest(webhook, batch));
    sent += 1;
    const at = clock.now();
    const mails = await recordOutcome(store, { webhook, batch, outcome, at });
    options.onAttempt?.({ webhook, notifications: batch, outcome, at });
    if (options.mail && mails.length > 0)
      await sendMails({ store, webhook, kinds: mails, mail: options.mail }).catch((error: unknown) =>
        options.onError?.(error, 'sending a webhook e-mail failed'),
      );
    if (!outcome.isAccepted) return sent;
  }
}

async function markDead(store: Store, webhook: WebhookRecord): Promise<void> {
  await store.transaction(async (tx) => {
    const current = await tx.webhooks.get(webhook.projectId, webhook.id, { isForUpdate: true });
    if (current === null) return;
    await tx.webhooks.updateHealth(current.projectId, current.id, { ...current, health: 'dead' });
    await tx.webhookQueue.discardPending(current.projectId, current.id);
  });
}

const hourMs = 3_600_000;

async function sendMails(options: {
  store: Store;
  webhook: WebhookRecord;
  kinds: readonly WebhookMailKind[];
  mail: MailSender;
}): Promise<void> {
  const to = await projectApiManagers(options.store, options.webhook.projectId);
  if (to.length === 0) return;
  for (const kind of options.kinds) await options.mail({ to, ...webhookMail(kind, options.webhook) });
}

/**
 * Records a POST's outcome and the webhook's health in one transaction; returns the e-mails of
 * SPEC 6.7 it calls for: failing for an hour (once per failure streak), a notification given up
 * after 3 days, and working again after a failure e-mail.
 */
async function recordOutcome(
  store: Store,
  options: { webhook: WebhookRecord; batch: readonly WebhookNotification[]; outcome: SendOutcome; at: Date },
): Promise<WebhookMailKind[]> {
  const { webhook, batch, outcome, at } = options;
  const head = batch[0] as WebhookNotification;
  const next = outcome.isAccepted
    ? null
    : nextAttemptAt({ failedAttempts: head.attempts + 1, firstAttemptAt: head.firstAttemptAt ?? at, now: at });
  return store.transaction(async (tx) => {
    await tx.webhookQueue.recordAttempt({
      ids: batch.map((n) => n.id),
      at,
      status: outcome.status,
      response: outcome.response,
      isAccepted: outcome.isAccepted,
      durationMs: outcome.durationMs,
      nextAttemptAt: next,
    });
    const current = await tx.webhooks.get(webhook.projectId, webhook.id, { isForUpdate: true });
    if (current === null) return [];
    const health = healthAfterAttempt(current, { isAccepted: outcome.isAccepted, at });
    const mails: WebhookMailKind[] = [];
    let failureMailedAt = current.failureMailedAt;
    if (outcome.isAccepted) {
      if (failureMailedAt !== null) mails.push('recovered');
      failureMailedAt = null;
    } else {
      const failingMs = health.failingSince === null ? 0 : at.getTime() - health.failingSince.getTime();
      if (failingMs >= hourMs && failureMailedAt === null) {
        mails.push('failing');
        failureMailedAt = at;
      }
      if (next === null) mails.push('gave_up');
    }
    await tx.webhooks.updateHealth(current.projectId, current.id, { ...current, ...health, failureMailedAt });
    // Dead (SPEC 3.1): unsent notifications are deleted and no more are sent.
    if (health.health === 'dead') await tx.webhookQueue.discardPending(current.projectId, current.id);
    return mails;
  });
}
