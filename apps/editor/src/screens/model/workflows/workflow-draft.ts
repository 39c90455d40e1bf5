import type { WorkflowColor } from '@lectern/core';
import type { Workflow } from '../../../api/project-model.ts';

/*
 * A workflow being edited: the Management API's workflow shape (reference §2.10) held as form
 * state, and the POST/PUT body made from it. A new step gets a client-made id that transitions
 * can name before the server has seen it (the server gives it a real id and keeps the
 * transitions pointing at it); existing steps keep their ids, so their content stays in them.
 */

/**
 * Kontent.ai's step colours, in the order its colour picker shows them: core's list
 * (`workflowColors`, which the server validates against), ordered for the picker. The browser
 * cannot bundle core's values, so the type ties the two: a colour core does not accept fails to
 * compile here, and so does one core accepts that the picker leaves out.
 */
export const stepColors = [
  'gray',
  'red',
  'rose',
  'light-purple',
  'dark-purple',
  'dark-blue',
  'light-blue',
  'sky-blue',
  'mint-green',
  'persian-green',
  'dark-green',
  'light-green',
  'yellow',
  'pink',
  'orange',
  'brown',
] as const satisfies readonly WorkflowColor[];

/** Compiles only while the picker offers every colour core accepts. */
export type EveryColorOffered = [Exclude<WorkflowColor, (typeof stepColors)[number]>] extends [never] ? true : never;
const everyColorOffered: EveryColorOffered = true;
void everyColorOffered;

export const publishedStepId = 'published';
export const archivedStepId = 'archived';

export interface StepDraft {
  readonly id: string;
  readonly isNew: boolean;
  readonly name: string;
  readonly codename: string;
  readonly color: string;
  /** Step ids, or `published` / `archived` for the system steps. */
  readonly transitionsTo: readonly string[];
  readonly roleIds: readonly string[];
}

export interface ScopeDraft {
  readonly contentTypes: readonly string[];
  readonly collections: readonly string[];
}

export interface WorkflowDraft {
  readonly id: string | null;
  readonly name: string;
  readonly codename: string;
  readonly scopes: readonly ScopeDraft[];
  readonly steps: readonly StepDraft[];
  readonly unpublishRoleIds: readonly string[];
  readonly createNewVersionRoleIds: readonly string[];
  readonly archivedRoleIds: readonly string[];
}

function systemTarget(workflow: Workflow, id: string): string {
  if (id === workflow.published_step.id) return publishedStepId;
  if (id === workflow.archived_step.id) return archivedStepId;
  return id;
}

export function draftOf(workflow: Workflow): WorkflowDraft {
  return {
    id: workflow.id,
    name: workflow.name,
    codename: workflow.codename,
    scopes: workflow.scopes.map((s) => ({
      contentTypes: s.content_types.map((t) => t.id),
      collections: s.collections.map((c) => c.id),
    })),
    steps: workflow.steps.map((s) => ({
      id: s.id,
      isNew: false,
      name: s.name,
      codename: s.codename,
      color: s.color,
      transitionsTo: s.transitions_to.map((t) => systemTarget(workflow, t.step.id)),
      roleIds: s.role_ids,
    })),
    unpublishRoleIds: workflow.published_step.unpublish_role_ids,
    createNewVersionRoleIds: workflow.published_step.create_new_version_role_ids,
    archivedRoleIds: workflow.archived_step.role_ids,
  };
}

/** A new step that leads to Published, as Kontent.ai adds one. */
export function newStep(name = ''): StepDraft {
  return {
    id: crypto.randomUUID(),
    isNew: true,
    name,
    codename: '',
    color: 'gray',
    transitionsTo: [publishedStepId],
    roleIds: [],
  };
}

/** A new workflow: one step ("Draft") leading to Published, scoped to nothing yet. */
export function blankDraft(): WorkflowDraft {
  return {
    id: null,
    name: '',
    codename: '',
    scopes: [{ contentTypes: [], collections: [] }],
    steps: [{ ...newStep('Draft'), color: 'sky-blue' }],
    unpublishRoleIds: [],
    createNewVersionRoleIds: [],
    archivedRoleIds: [],
  };
}

function target(id: string) {
  if (id === publishedStepId || id === archivedStepId) return { step: { codename: id } };
  return { step: { id } };
}

/** The POST/PUT body of the draft. Empty codenames are left for the server to derive. */
export function bodyOf(draft: WorkflowDraft) {
  return {
    name: draft.name.trim(),
    ...(draft.codename.trim() ? { codename: draft.codename.trim() } : {}),
    scopes: draft.scopes.map((s) => ({
      content_types: s.contentTypes.map((id) => ({ id })),
      collections: s.collections.map((id) => ({ id })),
    })),
    steps: draft.steps.map((s) => ({
      id: s.id,
      name: s.name.trim(),
      ...(s.codename.trim() ? { codename: s.codename.trim() } : {}),
      color: s.color,
      transitions_to: s.transitionsTo.map(target),
      role_ids: [...s.roleIds],
    })),
    published_step: {
      unpublish_role_ids: [...draft.unpublishRoleIds],
      create_new_version_role_ids: [...draft.createNewVersionRoleIds],
    },
    archived_step: { role_ids: [...draft.archivedRoleIds] },
  };
}

/** The list with `value` added or taken out. */
export function toggled(list: readonly string[], value: string, isOn: boolean): string[] {
  return isOn ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}
