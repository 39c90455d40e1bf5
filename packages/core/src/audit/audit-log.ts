import { LecternError } from '@lectern/errors';
import type { Actor } from '../domain/actor.ts';
import { isUuid } from '../domain/uuid.ts';
import type { CoreDeps } from '../deps.ts';
import { assertMayChange } from '../model/shared/access.ts';
import { keysetAfter, keysetPage, type Continuation } from '../model/shared/paging.ts';
import { requireOperator } from '../operations/require-operator.ts';
import { auditJson, type AuditEntryJson } from './audit-json.ts';
import { auditObject, type AuditActor } from './audit-entry.ts';
import type { AuditQuery } from './audit-port.ts';

/** The filters of the audit log's list and export (query parameters, as the client sent them). */
export interface AuditFilters {
  readonly user_id?: unknown;
  readonly key_id?: unknown;
  readonly object_id?: unknown;
  readonly object_kind?: unknown;
  readonly action?: unknown;
  readonly from?: unknown;
  readonly to?: unknown;
}

export const auditPageSize = 100;
/** Rows read per transaction while exporting. */
const exportBatch = 500;

/**
 * Project managers (manage environment settings) read their project's log; the operator every
 * project's, and with `projectId` null the entries of no project (sign-ins) and all the others.
 */
function assertMayRead(actor: Actor, projectId: string | null): void {
  if (projectId === null) requireOperator(actor);
  else assertMayChange(actor, projectId, 'manage_environment');
}

function parseFilters(raw: AuditFilters): Omit<AuditQuery, 'projectId' | 'before' | 'limit'> {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  const text = (name: keyof AuditFilters, test: (v: string) => boolean, hint: string) => {
    const v = raw[name];
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string' || v.length > 200 || !test(v)) problems.push(`'${name}' must be ${hint}`);
    else return v;
    return undefined;
  };
  const time = (name: 'from' | 'to') => {
    const v = text(name, (s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 date-time');
    return v === undefined ? undefined : new Date(v);
  };
  out['userId'] = text('user_id', isUuid, 'a user id');
  out['keyId'] = text('key_id', isUuid, 'a key id');
  out['objectId'] = text('object_id', (s) => /^[\w.:-]+$/.test(s), 'an object id');
  out['objectKind'] = text('object_kind', (s) => /^[a-z_]+$/.test(s), 'an object kind such as variant');
  out['action'] = text(
    'action',
    (s) => /^[a-z_]+(\.[a-z_]*)?$/.test(s),
    "an action such as 'variant.upsert' or 'variant.'",
  );
  out['from'] = time('from');
  out['to'] = time('to');
  if (problems.length > 0) throw new LecternError('INVALID_QUERY', { message: problems.join('; ') + '.' });
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** One page of the log, newest first (`GET /v2/projects/{id}/audit-log`, `x-continuation`). */
export async function listAuditLog(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string | null; filters: AuditFilters; continuation?: Continuation | undefined },
): Promise<{ entries: AuditEntryJson[]; continuationToken: string | null }> {
  assertMayRead(input.actor, input.projectId);
  const filters = parseFilters(input.filters);
  const list = { name: 'audit_log', scope: [input.projectId ?? '*', JSON.stringify(filters)], keyLength: 1 };
  const after = keysetAfter(list, input.continuation);
  return deps.store.transaction(async (tx) => {
    const rows = await tx.audit.list({
      ...filters,
      projectId: input.projectId,
      before: after === null ? null : (after[0] ?? null),
      limit: auditPageSize + 1,
    });
    const hasMore = rows.length > auditPageSize;
    const pageRows = rows.slice(0, auditPageSize);
    const last = pageRows.at(-1);
    const page = keysetPage(list, { rows: pageRows, next: hasMore && last ? [last.id] : null });
    return { entries: page.items.map(auditJson), continuationToken: page.continuationToken };
  });
}

/**
 * The whole log matching the filters, newest first, as it is read: one short transaction per
 * batch, so a long export neither holds a transaction nor the process's memory.
 */
export async function* exportAuditLog(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string | null; filters: AuditFilters },
): AsyncGenerator<AuditEntryJson> {
  assertMayRead(input.actor, input.projectId);
  const filters = parseFilters(input.filters);
  let before: number | null = null;
  for (;;) {
    const rows = await deps.store.transaction((tx) =>
      tx.audit.list({ ...filters, projectId: input.projectId, before, limit: exportBatch }),
    );
    for (const row of rows) yield auditJson(row);
    const last = rows.at(-1);
    if (rows.length < exportBatch || !last) return;
    before = last.id;
  }
}

/**
 * Records a sign-in or a refused one, in a transaction of its own (a refused sign-in changes
 * nothing else). For every way in: the editor's password, the console, OpenID Connect.
 */
export async function recordSignIn(
  deps: CoreDeps,
  input: {
    method: 'password' | 'oidc' | 'operator_token' | 'management_key';
    isSuccess: boolean;
    userId: string | null;
    /** The management key signed in with (the console takes one). */
    keyId?: string | null;
    /** As typed (bounded here); kept for refused sign-ins, whose user may not exist. */
    email: string | null;
    projectId?: string | null;
    reason?: string;
  },
): Promise<void> {
  const keyId = input.keyId ?? null;
  const actor: AuditActor = {
    type:
      keyId !== null
        ? 'key'
        : input.userId !== null
          ? 'user'
          : input.method === 'operator_token' && input.isSuccess
            ? 'operator'
            : 'anonymous',
    userId: input.userId,
    keyId,
  };
  await deps.store.transaction(async (tx) => {
    tx.audit.note({
      projectId: input.projectId ?? null,
      action: input.isSuccess ? 'session.sign_in' : 'session.sign_in_failed',
      object: auditObject('session', { id: input.userId, codename: input.email?.slice(0, 320) ?? null }),
      summary: { method: input.method, ...(input.reason === undefined ? {} : { reason: input.reason }) },
      actor,
    });
  });
}

/** Deletes entries older than `keepDays` days (LECTERN_AUDIT_KEEP_DAYS); the only deletion there is. */
export async function pruneAuditLog(deps: CoreDeps, input: { keepDays: number }): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - input.keepDays * 86_400_000);
  return deps.store.transaction((tx) => tx.audit.prune(before));
}
