import type { NewChangeEvent } from '../domain/change-event.ts';
import type { AuditScope } from './audit-context.ts';
import { auditActorOf, auditObject, type AuditRow, type NewAuditEntry } from './audit-entry.ts';

/** At most this many other objects are named in the summary of a change that touched several. */
const maxNamedObjects = 20;

/**
 * Gathers what one transaction changed, for its audit entry (issue 31: every change recorded
 * once, in the same transaction). The store feeds it every outbox append and every explicit
 * `note`, and writes `rows()` just before commit:
 *
 * - explicit notes (key creation, role changes, sign-ins…) are the entries, one each;
 * - otherwise the change events make ONE entry: action `<object kind>.<operation>` of the first
 *   event, its object, and a small summary (the workflow step's old → new when it moved, the
 *   other objects a bulk change touched);
 * - a transaction that noted nothing and appended no event changed nothing worth auditing
 *   (reads, leases, counters) and writes no entry.
 *
 * `describe` adds facts (e.g. the changed element ids) to the summary of whichever entry results.
 */
export interface AuditCollector {
  noteEvents(projectId: string, events: readonly NewChangeEvent[], at: Date): void;
  note(entry: NewAuditEntry): void;
  describe(summary: Readonly<Record<string, unknown>>): void;
  /**
   * The entries to write, with the actor, interface and request id of `scope` (the store takes it
   * when the transaction starts, before any queue of its own could lose the async context).
   */
  rows(now: Date, scope: AuditScope | undefined): AuditRow[];
}

export function createAuditCollector(): AuditCollector {
  const notes: NewAuditEntry[] = [];
  const events: { projectId: string; event: NewChangeEvent; at: Date }[] = [];
  let extra: Record<string, unknown> = {};
  return {
    noteEvents(projectId, list, at) {
      for (const event of list) events.push({ projectId, event, at });
    },
    note(entry) {
      notes.push(entry);
    },
    describe(summary) {
      extra = { ...extra, ...summary };
    },
    rows(now, scope) {
      const entries = notes.length > 0 ? notes.map((n) => ({ entry: n, at: now })) : fromEvents(events);
      if (entries.length === 0) return [];
      const actor = auditActorOf(scope?.actor() ?? null);
      return entries.map(({ entry, at }) => ({
        projectId: entry.projectId,
        occurredAt: at,
        actor: entry.actor ?? actor,
        via: scope?.via ?? 'system',
        requestId: scope?.requestId ?? null,
        action: entry.action,
        object: entry.object,
        summary: { ...entry.summary, ...extra },
      }));
    },
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** One entry for the whole transaction's events (none when it appended none). */
function fromEvents(list: readonly { projectId: string; event: NewChangeEvent; at: Date }[]) {
  const first = list[0];
  if (first === undefined) return [];
  const { event } = first;
  const p = event.payload;
  // Small by contract (every write stores one): the step only when it moved.
  const summary: Record<string, unknown> = {};
  const stepFrom = text(p['previous_step_id']);
  const stepTo = text(p['step_id']);
  if (stepFrom !== null && stepTo !== null && stepFrom !== stepTo) summary['step'] = { from: stepFrom, to: stepTo };
  const others = [
    ...new Set(
      list
        .filter((e) => !sameObject(e.event, event))
        .map((e) => `${e.event.objectKind}.${e.event.operation}:${e.event.objectId ?? ''}`),
    ),
  ];
  if (others.length > 0) {
    summary['other_changes'] = others.slice(0, maxNamedObjects);
    summary['other_change_count'] = others.length;
  }
  const entry: NewAuditEntry = {
    projectId: first.projectId,
    action: `${event.objectKind}.${event.operation}`,
    object: auditObject(event.objectKind, {
      id: event.objectId,
      codename: text(p['item_codename']) ?? text(p['codename']),
      languageId: text(p['language_id']),
      languageCodename: text(p['language_codename']),
    }),
    summary,
  };
  return [{ entry, at: first.at }];
}

function sameObject(a: NewChangeEvent, b: NewChangeEvent): boolean {
  return (
    a.objectKind === b.objectKind &&
    a.operation === b.operation &&
    a.objectId === b.objectId &&
    a.payload['language_id'] === b.payload['language_id']
  );
}
