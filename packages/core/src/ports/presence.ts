/**
 * Presence (issue 31): who has a language variant open in the editor and which element they are
 * editing, kept in the store (not a process) so every Management replica sees every person. One
 * row per browser tab (`clientId`), refreshed by heartbeats and ignored once older than the
 * expiry; and who last saved each variant, for the conflict view.
 */

export interface PresenceBeat {
  readonly userId: string;
  /** The tab's random id (a UUID it chose): a person may have the item open twice. */
  readonly clientId: string;
  readonly projectId: string;
  readonly itemId: string;
  readonly languageId: string;
  /** The codename of the element being edited, or null. */
  readonly element: string | null;
  readonly at: Date;
}

export type PresenceEntry = PresenceBeat;

export interface VariantIds {
  readonly projectId: string;
  readonly itemId: string;
  readonly languageId: string;
}

export interface PresenceRepository {
  /**
   * Stores the tab's heartbeat (one row per user and client, moved to the variant it names).
   * Answers `too_fast` and stores nothing when the tab's row was written less than `minIntervalMs`
   * before `at`. Keeps at most `maxPerUser` rows per user: the least recently seen others go.
   */
  beat(beat: PresenceBeat, limits: { minIntervalMs: number; maxPerUser: number }): Promise<'stored' | 'too_fast'>;
  /** The rows of the variant seen at or after `since`, oldest first. */
  list(variant: VariantIds & { since: Date }): Promise<PresenceEntry[]>;
  /** Removes the tab's row (it closed the item); nothing when absent. */
  leave(input: { userId: string; clientId: string }): Promise<void>;
  /** Removes every row seen before `before`; returns how many. */
  purge(before: Date): Promise<number>;
  /** Records that `userId` saved the variant at `at` (its `last_modified`). */
  recordSave(save: VariantIds & { userId: string; at: Date }): Promise<void>;
  /** The last recorded save of the variant by a person, or null. */
  lastSave(variant: VariantIds): Promise<{ userId: string; at: Date } | null>;
}
