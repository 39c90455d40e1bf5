import type { Actor } from '../domain/actor.ts';

/**
 * Through which interface a change came (issue 31, audit log). Set once per request or task by
 * the entry point (`runAudited`); `system` when nothing set it (a write that no entry point
 * claimed — the exactly-once test catches those).
 */
export const auditInterfaces = [
  'management_api_v1',
  'management_api_v2',
  'editor',
  'console',
  'admin_api',
  'cli',
  'mcp',
  'task',
  'system',
] as const;
export type AuditInterface = (typeof auditInterfaces)[number];

/** Who did it: a person (by user id), a key (with its user, when it has one), the operator, or Lectern itself. */
export interface AuditActor {
  readonly type: 'user' | 'key' | 'operator' | 'system' | 'anonymous';
  readonly userId: string | null;
  readonly keyId: string | null;
}

/** The object a change touched: its kind, id, codename and, for a variant, its language. */
export interface AuditObject {
  readonly kind: string;
  readonly id: string | null;
  readonly codename: string | null;
  readonly languageId: string | null;
  readonly languageCodename: string | null;
}

/**
 * What an operation states about its change when the outbox events alone do not say it: key
 * creation, role changes, sign-ins. `summary` is small by contract (ids, names, old → new).
 */
export interface NewAuditEntry {
  readonly projectId: string | null;
  readonly action: string;
  readonly object: AuditObject;
  readonly summary?: Readonly<Record<string, unknown>>;
  /** Who acted, when the scope does not know yet (a sign-in names the person signing in). */
  readonly actor?: AuditActor;
}

/** A stored audit entry: `id` ascends in commit order within one database. */
export interface AuditEntry {
  readonly id: number;
  readonly projectId: string | null;
  readonly occurredAt: Date;
  readonly actor: AuditActor;
  readonly via: AuditInterface;
  readonly requestId: string | null;
  readonly action: string;
  readonly object: AuditObject;
  readonly summary: Readonly<Record<string, unknown>>;
}

/** An entry as the store writes it (its `id` is assigned on insert). */
export type AuditRow = Omit<AuditEntry, 'id'>;

export const systemActor: AuditActor = Object.freeze({ type: 'system', userId: null, keyId: null });

/** The audit form of an operation's actor. */
export function auditActorOf(actor: Actor | null): AuditActor {
  if (actor === null) return systemActor;
  switch (actor.type) {
    case 'person':
      return { type: 'user', userId: actor.userId, keyId: null };
    case 'api_key':
      return { type: 'key', userId: actor.userId, keyId: actor.keyId };
    case 'operator':
      return { type: 'operator', userId: null, keyId: null };
    case 'anonymous':
      return { type: 'anonymous', userId: null, keyId: null };
  }
}

/** An object with only the fields given; the rest null. */
export function auditObject(kind: string, fields: Partial<Omit<AuditObject, 'kind'>> = {}): AuditObject {
  return {
    kind,
    id: fields.id ?? null,
    codename: fields.codename ?? null,
    languageId: fields.languageId ?? null,
    languageCodename: fields.languageCodename ?? null,
  };
}
