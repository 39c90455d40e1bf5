import type { AuditEntry } from './audit-entry.ts';

/** An audit entry on the wire (`GET …/audit-log`, one line of the export): snake_case as the Management API. */
export function auditJson(e: AuditEntry) {
  return {
    id: String(e.id),
    occurred_at: e.occurredAt.toISOString(),
    project_id: e.projectId,
    actor: { type: e.actor.type, user_id: e.actor.userId, key_id: e.actor.keyId },
    interface: e.via,
    request_id: e.requestId,
    action: e.action,
    object: {
      kind: e.object.kind,
      id: e.object.id,
      codename: e.object.codename,
      language: e.object.languageId === null ? null : { id: e.object.languageId, codename: e.object.languageCodename },
    },
    summary: e.summary,
  };
}

export type AuditEntryJson = ReturnType<typeof auditJson>;
