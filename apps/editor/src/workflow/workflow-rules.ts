/**
 * What the workflow allows from a variant's state, for a person's roles (Kontent.ai's rules, as
 * Lectern's core applies them: packages/core/src/content/workflow/). Pure, so it is tested alone.
 *
 * - A step's `role_ids` are the roles that may work with a variant in it (empty: every role); the
 *   Project manager may always. Its `transitions_to` are where it may go: regular steps and
 *   Archived through "Change workflow"; the Published step through "Publish" and "Schedule publish".
 * - From Archived a variant may go back to any regular step of its workflow.
 * - Published and Scheduled do not move through "Change workflow" (the API refuses with 215):
 *   Published offers "Create new version", "Unpublish" and "Schedule unpublish"; Scheduled offers
 *   "Cancel scheduling". Another workflow whose scope covers the item may be chosen, at any of
 *   its regular steps.
 */
import type { workflowJson } from '@lectern/core';

export type WorkflowJson = ReturnType<typeof workflowJson>;

/** The default workflow's id (the zero id), as core names it. */
const defaultWorkflowId = '00000000-0000-0000-0000-000000000000';

/** The fields of a MAPI v2 variant the panel reads (core renders the variant as a plain record). */
export interface VariantState {
  readonly workflow: {
    readonly workflow_identifier: { readonly id: string };
    readonly step_identifier: { readonly id: string };
  };
  readonly schedule: {
    readonly publish_time: string | null;
    readonly publish_display_timezone: string | null;
    readonly unpublish_time: string | null;
    readonly unpublish_display_timezone: string | null;
  };
  readonly due_date: { readonly value: string | null };
  readonly contributors: readonly { readonly id: string }[];
  readonly note?: string | null;
}

export interface Person {
  /** The person's role ids in the environment. */
  readonly roleIds: ReadonlySet<string>;
  readonly isProjectManager: boolean;
}

export interface StepTarget {
  readonly workflowId: string;
  readonly workflowName: string;
  readonly stepId: string;
  readonly stepName: string;
}

export type StepKind = 'regular' | 'published' | 'scheduled' | 'archived';

export function stepKind(workflow: WorkflowJson, stepId: string): StepKind {
  if (stepId === workflow.published_step.id) return 'published';
  if (stepId === workflow.scheduled_step.id) return 'scheduled';
  if (stepId === workflow.archived_step.id) return 'archived';
  return 'regular';
}

export function stepName(workflow: WorkflowJson | undefined, stepId: string): string {
  if (!workflow) return stepId;
  const regular = workflow.steps.find((s) => s.id === stepId);
  if (regular) return regular.name;
  for (const s of [workflow.published_step, workflow.scheduled_step, workflow.archived_step])
    if (s.id === stepId) return s.name;
  return stepId;
}

function mayWork(person: Person, roleIds: readonly string[]): boolean {
  return person.isProjectManager || roleIds.length === 0 || roleIds.some((id) => person.roleIds.has(id));
}

/**
 * Whether a workflow's scopes cover an item, as core decides it for change-workflow: the default
 * workflow covers every item; another one a scope whose lists (empty: all) hold the item's type
 * and collection. A workflow without scopes covers nothing.
 */
export function isInScope(workflow: WorkflowJson, item: { typeId: string; collectionId: string }): boolean {
  if (workflow.id === defaultWorkflowId) return true;
  return workflow.scopes.some(
    (s) =>
      (s.content_types.length === 0 || s.content_types.some((t) => t.id === item.typeId)) &&
      (s.collections.length === 0 || s.collections.some((c) => c.id === item.collectionId)),
  );
}

/** The steps "Change workflow" offers from the variant's current step. */
export function allowedTargets(
  workflows: readonly WorkflowJson[],
  variant: VariantState,
  person: Person,
  item: { typeId: string; collectionId: string },
): StepTarget[] {
  const current = workflows.find((w) => w.id === variant.workflow.workflow_identifier.id);
  const stepId = variant.workflow.step_identifier.id;
  if (!current) return [];
  const kind = stepKind(current, stepId);
  if (kind === 'published' || kind === 'scheduled') return [];
  const out: StepTarget[] = [];
  const add = (w: WorkflowJson, id: string) => {
    if (w.id === current.id && id === stepId) return;
    out.push({ workflowId: w.id, workflowName: w.name, stepId: id, stepName: stepName(w, id) });
  };
  if (kind === 'archived') {
    if (!mayWork(person, current.archived_step.role_ids)) return [];
    for (const s of current.steps) add(current, s.id);
  } else {
    const step = current.steps.find((s) => s.id === stepId);
    if (!step || !mayWork(person, step.role_ids)) return [];
    for (const t of step.transitions_to) {
      const k = stepKind(current, t.step.id);
      if (k === 'regular' || k === 'archived') add(current, t.step.id);
    }
  }
  for (const w of workflows) {
    if (w.id === current.id || !isInScope(w, item)) continue;
    for (const s of w.steps) add(w, s.id);
  }
  return out;
}

export type ActionName =
  | 'change-workflow'
  | 'publish'
  | 'schedule-publish'
  | 'unpublish'
  | 'schedule-unpublish'
  | 'new-version'
  | 'cancel-scheduled-publish'
  | 'cancel-scheduled-unpublish';

/**
 * The actions the variant's state allows for the person. `isPublished`: a published version
 * exists (the latest may be a newer draft of it).
 */
export function allowedActions(
  workflow: WorkflowJson | undefined,
  variant: VariantState,
  person: Person,
  options: { isPublished: boolean; hasTargets: boolean },
): Set<ActionName> {
  const out = new Set<ActionName>();
  if (!workflow) return out;
  const stepId = variant.workflow.step_identifier.id;
  const kind = stepKind(workflow, stepId);
  const published = workflow.published_step;
  if (variant.schedule.unpublish_time !== null) out.add('cancel-scheduled-unpublish');
  if (kind === 'published') {
    if (mayWork(person, published.create_new_version_role_ids)) out.add('new-version');
    if (mayWork(person, published.unpublish_role_ids)) {
      out.add('unpublish');
      out.add('schedule-unpublish');
    }
    return out;
  }
  if (kind === 'scheduled') {
    out.add('cancel-scheduled-publish');
    if (mayWork(person, published.unpublish_role_ids)) out.add('schedule-unpublish');
    return out;
  }
  if (options.hasTargets) out.add('change-workflow');
  if (options.isPublished && mayWork(person, published.unpublish_role_ids)) {
    out.add('unpublish');
    out.add('schedule-unpublish');
  }
  const step = workflow.steps.find((s) => s.id === stepId);
  if (
    kind === 'regular' &&
    step &&
    mayWork(person, step.role_ids) &&
    step.transitions_to.some((t) => t.step.id === published.id)
  ) {
    out.add('publish');
    out.add('schedule-publish');
  }
  return out;
}
