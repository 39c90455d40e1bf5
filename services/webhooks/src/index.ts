// The webhook worker (issue 13): materialises notifications from change events, delivers them
// signed, retries on the schedule, moves health; the pure rules it applies are exported too.
export { notificationKinds, type NotificationKind } from './event-map.ts';
export { deadAfterMs, healthAfterAttempt, nextAttemptAt, retentionMs, retryDelaysMs } from './retry-policy.ts';
export type { HealthState } from './retry-policy.ts';
export { matchesTriggers, type NotificationSubject } from './trigger-match.ts';
export { notificationBody, signatureHeaderNames, signatureHeaders, signBody } from './signature.ts';
export { createHttpSender, type HttpSenderOptions, type Sender, type SendOutcome } from './http-sender.ts';
export { catchUpProject, materialiseEvents } from './materialise.ts';
export { buildRequest, type AttemptReport } from './delivery.ts';
export { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './worker.ts';
export { registerWebhookMetrics } from './metrics.ts';
export { createWebhookService, webhooksGroup } from './service.ts';
export { webhookDeliverySettings, webhookMailSettings, webhooksServiceSettings } from './settings.ts';
export {
  createSmtpSender,
  keyExpiryNoticeMs,
  projectApiManagers,
  sendKeyExpiryNotices,
  webhookMail,
  type MailSender,
  type WebhookMailKind,
} from './mail.ts';
