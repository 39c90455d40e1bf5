import { randomUUID } from 'node:crypto';
import { createChangeConsumer, type Clock, type EventBus, type IdSource, type Store } from '@lectern/core';
import { drainWebhook, type AttemptReport } from './delivery.ts';
import type { Sender } from './http-sender.ts';
import { sendKeyExpiryNotices, type MailSender } from './mail.ts';
import { catchUpProject, materialiseEvents } from './materialise.ts';
import { deadAfterMs, retentionMs } from './retry-policy.ts';

export interface WebhookWorkerOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly send: Sender;
  /** Where change events come from once started; none: only `catchUp` materialises. */
  readonly bus?: EventBus;
  /** Consumer group on the bus. Default `lectern-webhooks`. */
  readonly group?: string;
  /** This worker's name in leases (unique per replica). Default: random. */
  readonly owner?: string;
  /**
   * How long a webhook lease lasts without renewal. A worker renews it every third of this while it
   * delivers (also during a long POST), so a crashed worker's webhooks move on after this. Default 15 s.
   */
  readonly leaseMs?: number;
  /** Wait between delivery passes when nothing wakes the worker. Default 500 ms. */
  readonly pollMs?: number;
  /** Current-format notifications per POST at most. Default 50. */
  readonly maxBatch?: number;
  /** Webhooks delivered at once by this worker at most. Default 100. */
  readonly maxWebhooks?: number;
  readonly onAttempt?: (report: AttemptReport) => void;
  /** Sends the e-mails of SPEC 6.7 to the project's API managers; none: no e-mail. */
  readonly mail?: MailSender;
  readonly onError?: (error: unknown, what: string) => void;
}

export interface WebhookWorker {
  /** Catches every project up from the outbox, joins the consumer group and starts delivering. */
  start(): Promise<void>;
  /** Leaves the group, stops delivering; resolves when the POSTs under way have been recorded. */
  stop(): Promise<void>;
  /** Materialises every project's events after its progress, from the outbox. */
  catchUp(): Promise<void>;
  /**
   * One delivery pass at the clock's time: leases the webhooks with due notifications and delivers
   * them; resolves when every webhook of the pass (and of passes under way) is done.
   */
  deliverDue(): Promise<void>;
  /** Starts a delivery pass now instead of at the next poll. */
  wake(): void;
}

/**
 * The webhook worker (issue 13): consumes change events in its own consumer group, stores the
 * notifications of matching webhooks durably before the events are acknowledged, and delivers
 * each webhook's queue in creation order under a lease, each webhook on its own, so no webhook
 * waits behind another and any number of replicas can share one database.
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { store, clock, ids } = options;
  const owner = options.owner ?? `webhooks-${randomUUID()}`;
  const leaseMs = options.leaseMs ?? 15_000;
  const pollMs = options.pollMs ?? 500;
  const maxBatch = options.maxBatch ?? 50;
  const maxWebhooks = options.maxWebhooks ?? 100;
  const active = new Map<string, Promise<void>>();
  let isRunning = false;
  let timer: NodeJS.Timeout | null = null;
  let passUnderWay: Promise<void> | null = null;
  let lastPurgeAt = 0;

  const report = (what: string) => (error: unknown) => options.onError?.(error, what);

  /** Materialising runs as each delivery comes (no serial queue): deliveries are independent. */
  const consumer = createChangeConsumer({
    name: 'createWebhookWorker',
    store,
    bus: options.bus,
    isBusOptional: true,
    group: options.group ?? 'lectern-webhooks',
    catchUpProject: (projectId) => catchUpProject({ store, ids, projectId }),
    async handle(events) {
      const created = await materialiseEvents({ store, ids, events });
      if (created > 0) schedule(0);
    },
    onError: (error) => options.onError?.(error, 'materialising webhook notifications failed; the events come again'),
  });
  const catchUp = () => consumer.catchUp();

  function drain(projectId: string, webhookId: string): Promise<void> {
    const key = `${projectId}/${webhookId}`;
    const renew = () =>
      store.transaction((tx) =>
        tx.webhookQueue.renew({ projectId, webhookId, owner, until: new Date(clock.now().getTime() + leaseMs) }),
      );
    // Renewed while a POST waits for its answer too, so only a dead worker's lease lapses.
    const heartbeat = setInterval(() => void renew().catch(report('renewing a webhook lease failed')), leaseMs / 3);
    const run = drainWebhook({
      store,
      clock,
      send: options.send,
      projectId,
      webhookId,
      maxBatch,
      renew,
      ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
      ...(options.mail ? { mail: options.mail } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
    })
      .catch(report('delivering webhook notifications failed'))
      .then(() => store.transaction((tx) => tx.webhookQueue.release({ projectId, webhookId, owner })))
      .catch(report('releasing a webhook lease failed'))
      .finally(() => {
        clearInterval(heartbeat);
        active.delete(key);
      });
    active.set(key, run);
    return run;
  }

  async function pass(): Promise<void> {
    const now = clock.now();
    if (now.getTime() - lastPurgeAt >= 60_000) {
      lastPurgeAt = now.getTime();
      await store.transaction(async (tx) => {
        await tx.webhookQueue.purge(new Date(now.getTime() - retentionMs));
        // Dead also when nothing more was tried: failing for 7 days with nothing accepted.
        await tx.webhookQueue.declareDead(new Date(now.getTime() - deadAfterMs));
      });
      if (options.mail)
        await sendKeyExpiryNotices({ store, mail: options.mail, now }).catch(
          report('sending management key expiry notices failed'),
        );
    }
    const free = maxWebhooks - active.size;
    if (free <= 0) return;
    const claimed = await store.transaction((tx) =>
      tx.webhookQueue.claim({ owner, now, until: new Date(now.getTime() + leaseMs), limit: free }),
    );
    for (const c of claimed) if (!active.has(`${c.projectId}/${c.id}`)) void drain(c.projectId, c.id);
  }

  /** One pass at a time; a pass asked for while one runs waits for it, then runs. */
  function runPass(): Promise<void> {
    const previous = passUnderWay ?? Promise.resolve();
    const next = previous.then(pass).catch(report('a webhook delivery pass failed'));
    passUnderWay = next;
    return next;
  }

  function schedule(delayMs: number): void {
    if (!isRunning) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void runPass().then(() => schedule(pollMs));
    }, delayMs);
  }

  return {
    catchUp,
    async start() {
      if (isRunning) return;
      await consumer.start();
      isRunning = true;
      schedule(0);
    },
    async stop() {
      isRunning = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await consumer.stop();
      await passUnderWay;
      await Promise.all(active.values());
    },
    async deliverDue() {
      await runPass();
      while (active.size > 0) await Promise.all(active.values());
    },
    wake() {
      schedule(0);
    },
  };
}
