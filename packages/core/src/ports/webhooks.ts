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
