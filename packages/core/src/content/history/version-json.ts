import type { StoredVersion, VersionInterface } from './version-record.ts';

/** A version's metadata on the wire (Lectern extension; snake_case as the Management API). */
export type VersionJson = {
  readonly id: string;
  /** 1 for the first version of the variant, then one more per save. */
  readonly number: number;
  readonly saved_at: string;
  /** The person or the management key's user; null for the operator, background tasks and baselines. */
  readonly saved_by: { readonly id: string } | null;
  readonly interface: VersionInterface;
  readonly operation: string;
  readonly workflow: { readonly workflow_identifier: { id: string }; readonly step_identifier: { id: string } };
  readonly is_published: boolean;
  readonly published_version: { readonly id: string } | null;
  readonly changed_elements: readonly { readonly id: string }[];
  readonly restored_from: { readonly id: string } | null;
};

export function versionJson(v: StoredVersion): VersionJson {
  return {
    id: v.id,
    number: v.seq,
    saved_at: v.createdAt.toISOString(),
    saved_by: v.userId === null ? null : { id: v.userId },
    interface: v.via,
    operation: v.operation,
    workflow: { workflow_identifier: { id: v.workflowId }, step_identifier: { id: v.stepId } },
    is_published: v.isPublished,
    published_version: v.publishedVersionId === null ? null : { id: v.publishedVersionId },
    changed_elements: v.changedElements.map((id) => ({ id })),
    restored_from: v.restoredFrom === null ? null : { id: v.restoredFrom },
  };
}
