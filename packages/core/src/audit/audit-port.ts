import type { AuditEntry, AuditRow, NewAuditEntry } from './audit-entry.ts';

/** Which entries to read: all filters optional and joined by AND; newest first. */
export interface AuditQuery {
  /** One project's entries; null for every project's and the ones of no project (operator only). */
  readonly projectId: string | null;
  /** Entries whose actor acted as this user (signed in, or by their management key). */
  readonly userId?: string;
  readonly keyId?: string;
  readonly objectId?: string;
  readonly objectKind?: string;
  /** An exact action (`variant.upsert`) or a prefix ending in a dot (`variant.`). */
  readonly action?: string;
  readonly from?: Date;
  /** Exclusive. */
  readonly to?: Date;
  /** Entries older than this entry id (the previous page's last); null from the newest. */
  readonly before: number | null;
  readonly limit: number;
}

/**
 * The audit log as the store keeps it: append-only. There is no update, and no delete but
 * `prune` (the retention setting); the store refuses any other change of the table itself
 * (a trigger), whoever asks.
 */
export interface AuditLogRepository {
  insert(rows: readonly AuditRow[]): Promise<void>;
  /** Up to `limit` entries matching `query`, newest first. */
  list(query: AuditQuery): Promise<AuditEntry[]>;
  /**
   * Deletes the entries that occurred before `before`, oldest first up to the first one that did
   * not (entries follow commit order; a writer's clock running behind may keep one a little
   * longer); returns how many.
   */
  prune(before: Date): Promise<number>;
}

/**
 * The transaction's audit: the repository, plus what an operation states about its change
 * (`note`, `describe`; see `AuditCollector`). Written by the store just before commit.
 */
export interface AuditTrail extends AuditLogRepository {
  note(entry: NewAuditEntry): void;
  describe(summary: Readonly<Record<string, unknown>>): void;
}
