import type { ChangeEvent } from '../domain/change-event.ts';

/** Change events `from`..`to` of one project, for tests of buses and consumers. */
export const events = (projectId: string, from: number, to: number): ChangeEvent[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    projectId,
    seq: from + i,
    objectKind: 'variant',
    operation: 'upsert',
    objectId: null,
    channel: 'delivery_preview',
    payload: {},
    occurredAt: new Date(0),
  }));
