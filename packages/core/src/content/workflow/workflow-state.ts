import type { ModelRecord } from '../../domain/model-record.ts';
import { systemStepIds, zeroId } from '../../model/defaults.ts';
import type { WorkflowBody } from '../../model/workflows/workflow-body.ts';
import type { VariantRecord } from '../variants/variant-record.ts';

/** Published, Scheduled and Archived: steps only the workflow actions move a variant into or out of. */
const lockedSteps: ReadonlySet<string> = new Set([
  systemStepIds.published,
  systemStepIds.scheduled,
  systemStepIds.archived,
]);

/** Whether the latest version may be edited: not while Published, Scheduled or Archived (SPEC 1). */
export function isEditable(variant: Pick<VariantRecord, 'stepId'>): boolean {
  return !lockedSteps.has(variant.stepId);
}

/** Whether a workflow's scopes cover an item of `typeId` in `collectionId`; empty lists cover everything. */
export function isInScope(
  workflow: ModelRecord<WorkflowBody>,
  item: { typeId: string; collectionId: string },
): boolean {
  if (workflow.id === zeroId) return true;
  return workflow.body.scopes.some(
    (s) =>
      (s.content_types.length === 0 || s.content_types.some((t) => t.id === item.typeId)) &&
      (s.collections.length === 0 || s.collections.some((c) => c.id === item.collectionId)),
  );
}

/**
 * The workflow a new variant enters: the first user workflow whose scope covers the item's type
 * and collection, else the default workflow.
 */
export function workflowFor(
  workflows: readonly ModelRecord<WorkflowBody>[],
  item: { typeId: string; collectionId: string },
): ModelRecord<WorkflowBody> | null {
  const scoped = workflows.find((w) => w.id !== zeroId && w.body.scopes.length > 0 && isInScope(w, item));
  return scoped ?? workflows.find((w) => w.id === zeroId) ?? workflows[0] ?? null;
}

export function firstStepOf(workflow: ModelRecord<WorkflowBody>): string {
  return workflow.body.steps[0]?.id ?? systemStepIds.draft;
}
