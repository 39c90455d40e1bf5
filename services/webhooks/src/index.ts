// The webhook worker (issue 13), built in steps. So far: the notification body bytes and their
// signature, checked against Kontent.ai's official test vectors, and the retry schedule and
// health rules as functions of the time they are given, and which notifications (object type,
// action, delivery slot) a change event stands for and whether a webhook's triggers ask for it.
export { notificationKinds, type NotificationKind } from './event-map.ts';
export { deadAfterMs, healthAfterAttempt, nextAttemptAt, retentionMs, retryDelaysMs } from './retry-policy.ts';
export type { HealthState } from './retry-policy.ts';
export { matchesTriggers, type NotificationSubject } from './trigger-match.ts';
export { notificationBody, signatureHeaderNames, signatureHeaders, signBody } from './signature.ts';
