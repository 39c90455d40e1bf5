/**
 * Webhooks as the store keeps them (issue 13). Two parties write a webhook row and neither may
 * overwrite the other's columns: registration (Management API, CLI) owns what the user set —
 * name, url, secret, headers, triggers, enabled, the reset request — and the delivery worker owns
 * the health columns. Each repository method below writes only its own party's columns, so a
 * disable racing a delivery result loses neither. Two registration actions also move health, in
 * the same transaction with the row locked: a reset and a URL change of a dead webhook put it
 * back to `unknown` (SPEC 3.1). Notifications queued for a webhook go with it when it is deleted.
 */

/** `vnext`: registered through `/webhooks-vnext`, sends the current batched format; `legacy`: `/webhooks`, the SPEC 2.10 format. */
export type WebhookFormat = 'vnext' | 'legacy';

/**
 * Health as the Management API shows it (`health_status`). `unknown` is SPEC 3.1's "ready for
 * message": registered (or revived, or reset) and nothing sent since.
 */
export type WebhookHealth = 'unknown' | 'working' | 'failing' | 'dead';

export interface WebhookHeader {
  readonly key: string;
  readonly value: string;
}

export interface WebhookRecord {
  readonly projectId: string;
  readonly id: string;
  readonly format: WebhookFormat;
  readonly name: string;
  readonly url: string;
  /** Used as UTF-8 text for the HMAC (never base64-decoded). */
  readonly secret: string;
  readonly headers: readonly WebhookHeader[];
  /**
   * What triggers it, in its format's wire shape as stored after validation: vnext
   * `delivery_triggers`, legacy `triggers`. The worker matches events against it.
   */
  readonly triggers: Readonly<Record<string, unknown>>;
  readonly isEnabled: boolean;
  readonly createdAt: Date;
  /** Last change by registration (the wire `last_modified`). */
  readonly lastModified: Date;
  /**
   * Events of the project with a sequence at or below this are not notified to this webhook:
   * set to the project's latest sequence when the webhook is created and when it is enabled, so
   * a lagging worker never notifies what happened before (SPEC 3.1: disabled webhooks ignore
   * triggers).
   */
  readonly fromSeq: number;
  /**
   * Set by a reset (SPEC 3.1, "the last failed notification is sent again"); the worker compares
   * it with `resetHandledAt` and acts once per reset.
   */
  readonly resetRequestedAt: Date | null;

  // Owned by the delivery worker:
  readonly health: WebhookHealth;
  /** First failed attempt since the last accepted one; null while not failing. */
  readonly failingSince: Date | null;
  readonly lastAcceptedAt: Date | null;
  readonly resetHandledAt: Date | null;
  /** When the 1-hour failure e-mail (SPEC 6.7) went out for the current failure streak; null when none. */
  readonly failureMailedAt: Date | null;
}

/** The columns registration writes (create, enable, disable, URL change, reset). */
export type WebhookRegistration = Pick<
  WebhookRecord,
  'name' | 'url' | 'secret' | 'headers' | 'triggers' | 'isEnabled' | 'lastModified' | 'fromSeq' | 'resetRequestedAt'
>;

/** The columns the delivery worker writes. */
export type WebhookHealthState = Pick<
  WebhookRecord,
  'health' | 'failingSince' | 'lastAcceptedAt' | 'resetHandledAt' | 'failureMailedAt'
>;

/** Webhook rows of every project; implemented by store-sql (`UnitOfWork.webhooks`). */
export interface WebhookRepository {
  insert(record: WebhookRecord): Promise<void>;
  /** The webhook, or null; `isForUpdate` locks the row until commit. */
  get(projectId: string, id: string, options?: { isForUpdate?: boolean }): Promise<WebhookRecord | null>;
  /** Every webhook of the project (both formats), in creation order. */
  list(projectId: string): Promise<WebhookRecord[]>;
  /** Writes the registration columns only; false when the webhook does not exist. */
  updateRegistration(projectId: string, id: string, registration: WebhookRegistration): Promise<boolean>;
  /** Writes the health columns only; false when the webhook does not exist. */
  updateHealth(projectId: string, id: string, state: WebhookHealthState): Promise<boolean>;
  /** Deletes the webhook and everything queued for it; false when it did not exist. */
  delete(projectId: string, id: string): Promise<boolean>;
}

/**
 * Where a notification is: `pending` (waiting for its first attempt or a retry), `delivered` (a
 * 2xx answered it), `expired` (retried for 3 days and removed from the queue; kept only for the
 * debug list of SPEC 6.8).
 */
export type NotificationState = 'pending' | 'delivered' | 'expired';

/** A notification as the worker materialises it from a change event. */
export interface NewWebhookNotification {
  readonly projectId: string;
  readonly webhookId: string;
  /** The stable message id: a notification sent twice carries the same id. */
  readonly id: string;
  /** The change event it stands for, and which of that event's notifications it is. */
  readonly eventSeq: number;
  readonly kind: string;
  /** One notification of the webhook's format, as sent (the legacy `webhook_url` is added at send time). */
  readonly body: Readonly<Record<string, unknown>>;
  readonly createdAt: Date;
}

export interface WebhookNotification extends NewWebhookNotification {
  /** Creation order within the store: a webhook's queue is delivered in this order. */
  readonly order: number;
  readonly state: NotificationState;
  readonly attempts: number;
  /** Whether any attempt failed (the debug list's "failed at any time"). */
  readonly hasFailed: boolean;
  readonly firstAttemptAt: Date | null;
  readonly nextAttemptAt: Date;
  readonly lastAttemptAt: Date | null;
  /** HTTP status of the last attempt; null when none or when no answer came (time-out, refused). */
  readonly lastStatus: number | null;
  /** The start of the last answer's body, or what went wrong. */
  readonly lastResponse: string | null;
}

/** The outcome of one POST, for every notification it carried. */
export interface DeliveryAttempt {
  readonly ids: readonly string[];
  readonly at: Date;
  readonly status: number | null;
  readonly response: string | null;
  readonly isAccepted: boolean;
  readonly durationMs: number;
  /** When to try again after a failure; null: the notifications expire (removed from the queue). */
  readonly nextAttemptAt: Date | null;
}

/** Debug list filters (SPEC 6.8): every notification, those that failed at any time, those failing now. */
export type NotificationFilter = 'all' | 'failed' | 'failing';

/**
 * The durable notification queue and the worker's bookkeeping (store-sql `UnitOfWork.webhookQueue`).
 * Leases make one worker at a time deliver a webhook's queue, so several replicas keep each
 * webhook's order without any webhook waiting behind another.
 */
export interface WebhookQueueRepository {
  /** Stores notifications; one already stored for its (webhook, event, kind) is skipped. Returns how many were new. */
  enqueue(notifications: readonly NewWebhookNotification[]): Promise<number>;
  /** The last event sequence of the project turned into notifications (0 when none). */
  progress(projectId: string): Promise<number>;
  /** Records progress up to `seq` (never moves back). */
  advanceProgress(projectId: string, seq: number): Promise<void>;
  /**
   * Leases, until `until`, at most `limit` enabled, not dead webhooks whose oldest pending
   * notification is due at `now` and whose lease is free, expired or already `owner`'s.
   */
  claim(options: {
    owner: string;
    now: Date;
    until: Date;
    limit: number;
  }): Promise<{ projectId: string; id: string }[]>;
  /** Extends `owner`'s lease; false when it no longer holds it. */
  renew(options: { projectId: string; webhookId: string; owner: string; until: Date }): Promise<boolean>;
  release(options: { projectId: string; webhookId: string; owner: string }): Promise<void>;
  /**
   * The webhook's pending notifications in creation order from the oldest, at most `limit`, as
   * long as they are due at `now`: nothing when the oldest is waiting for a retry.
   */
  due(options: { projectId: string; webhookId: string; now: Date; limit: number }): Promise<WebhookNotification[]>;
  /** Records one POST's outcome on each notification it carried, and an attempt row each. */
  recordAttempt(attempt: DeliveryAttempt): Promise<void>;
  /**
   * Removes the webhook's pending notifications from the queue (disable, dead); returns how many.
   * Those never tried are deleted; those that failed are kept as `expired`, for the debug list and
   * for a reset, which sends the last failed one again.
   */
  discardPending(projectId: string, webhookId: string): Promise<number>;
  /**
   * Puts the webhook's most recent notification that failed back in the queue, due at `now`, its
   * retry schedule restarted (attempts counted from 0 again); false when it has none.
   */
  requeueLastFailed(options: { projectId: string; webhookId: string; now: Date }): Promise<boolean>;
  /** Notifications created at or after `since`, newest first, at most `limit`. */
  list(options: {
    projectId: string;
    webhookId: string;
    since: Date;
    filter: NotificationFilter;
    limit: number;
  }): Promise<WebhookNotification[]>;
  /**
   * Declares dead every webhook failing since `failingBefore` or earlier (SPEC 3.1: 7 days with
   * nothing accepted), and removes its pending notifications as `discardPending` does; returns how many.
   */
  declareDead(failingBefore: Date): Promise<number>;
  /** Deletes delivered and expired notifications created before `before`; returns how many. */
  purge(before: Date): Promise<number>;
  /** Notifications per state over every project. */
  depth(): Promise<Record<NotificationState, number>>;
  /** Webhooks per health over every project. */
  healthCounts(): Promise<Record<WebhookHealth, number>>;
  /** The earliest moment a pending notification of an enabled, not dead webhook is due; null when none. */
  nextDueAt(): Promise<Date | null>;
}

/** A management key about to expire, whose notice this caller now owns. */
export interface ExpiringKey {
  readonly keyId: string;
  readonly projectId: string;
  readonly expiresAt: Date;
}

/** Once-only e-mail notices (store-sql `UnitOfWork.notices`). */
export interface NoticeRepository {
  /**
   * Claims the unrevoked management keys expiring after `now` and at or before `until` whose
   * expiry notice (SPEC 3.2) has not been claimed yet, recording it at `now`; each key is returned
   * to one caller only, whatever runs concurrently.
   */
  claimKeyExpiryNotices(options: { now: Date; until: Date }): Promise<ExpiringKey[]>;
}
