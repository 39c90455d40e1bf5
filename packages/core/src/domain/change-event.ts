/** Which delivery channel a change affects; `management` when neither (model-only or admin changes). */
export type ChangeChannel = 'delivery_production' | 'delivery_preview' | 'management';

/** A change event as written by an operation, before the outbox assigns its sequence. */
export interface NewChangeEvent {
  readonly objectKind: string;
  readonly operation: string;
  readonly objectId: string | null;
  readonly channel: ChangeChannel;
  /** Whatever consumers need beyond the fields above: codenames, language, type, … */
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A committed change event: gap-free `seq` per project, in commit order. */
export interface ChangeEvent extends NewChangeEvent {
  readonly projectId: string;
  readonly seq: number;
  readonly occurredAt: Date;
}
