import type { Clock, EventBus, IdSource, Store } from '@lectern/core';
import type { ProcessMetrics } from '@lectern/http-kit';
import { createHttpSender } from './http-sender.ts';
import { createSmtpSender } from './mail.ts';
import { registerWebhookMetrics } from './metrics.ts';
import { createWebhookWorker, type WebhookWorker } from './worker.ts';

/** The consumer group of webhook workers on the change-event bus. */
export const webhooksGroup = 'lectern-webhooks';

/**
 * The webhook worker as the embedded process and the webhooks service run it: HTTP delivery with
 * the SSRF guard (unless private addresses are allowed), consumer group `lectern-webhooks`, and
 * its metrics on `metrics` when given. Not started: call `start()`.
 */
export function createWebhookService(options: {
  store: Store;
  clock: Clock;
  ids: IdSource;
  bus: EventBus;
  isPrivateAllowed: boolean;
  timeoutMs: number;
  /** SMTP for the e-mails of SPEC 6.7; none: no e-mail. */
  smtp?: { url: string; from: string };
  metrics?: ProcessMetrics;
  onError?: (error: unknown, what: string) => void;
}): WebhookWorker {
  const hooks = options.metrics ? registerWebhookMetrics(options.metrics, { store: options.store }) : null;
  return createWebhookWorker({
    store: options.store,
    clock: options.clock,
    ids: options.ids,
    bus: options.bus,
    group: webhooksGroup,
    send: createHttpSender({ isPrivateAllowed: options.isPrivateAllowed, timeoutMs: options.timeoutMs }),
    ...(hooks ? { onAttempt: hooks.onAttempt } : {}),
    ...(options.smtp ? { mail: createSmtpSender(options.smtp) } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
