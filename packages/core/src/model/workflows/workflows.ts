import { LecternError } from '@lectern/errors';
import type { RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { requireModel } from '../collections/model-fields.ts';
import { systemStepIds, zeroId } from '../defaults.ts';
import {
  deleteModel,
  assertModelAccess,
  commitModel,
  Problems,
  type ModelInput,
  writeModel,
  createModel,
} from '../shared/index.ts';
import { readWorkflowBody, type WorkflowBody, type WorkflowRecord } from './workflow-body.ts';

/*
 * Workflows (reference §2.10): one model document per workflow. POST and PUT take the whole
 * workflow; PUT keeps the ids of steps it names by id. The default workflow (all-zero id) exists
 * in every project and cannot be deleted.
 */

/** The Management API form of a workflow; the three system steps are always present. */
export function workflowJson(r: WorkflowRecord) {
  return {
    id: r.id,
    name: r.body.name,
    codename: r.codename,
    scopes: r.body.scopes.map((s) => ({
      content_types: s.content_types.map((t) => ({ id: t.id })),
      collections: s.collections.map((c) => ({ id: c.id })),
    })),
    steps: r.body.steps.map((s) => ({
      id: s.id,
      name: s.name,
      codename: s.codename,
      color: s.color,
      transitions_to: s.transitions_to.map((t) => ({ step: { id: t.step.id } })),
      role_ids: [...s.role_ids],
    })),
    published_step: {
      id: systemStepIds.published,
      name: 'Published',
      codename: 'published',
      unpublish_role_ids: [...r.body.published_step.unpublish_role_ids],
      create_new_version_role_ids: [...r.body.published_step.create_new_version_role_ids],
    },
    scheduled_step: { id: systemStepIds.scheduled, name: 'Scheduled', codename: 'scheduled' },
    archived_step: {
      id: systemStepIds.archived,
      name: 'Archived',
      codename: 'archived',
      role_ids: [...r.body.archived_step.role_ids],
    },
  };
}

/** The legacy `GET /workflow` form: the default workflow's steps, then Scheduled, Published, Archived. */
export function workflowStepsJson(r: WorkflowRecord) {
  return [
    ...r.body.steps.map((s) => ({
      id: s.id,
      name: s.name,
      codename: s.codename,
      transitions_to: s.transitions_to.map((t) => t.step.id),
    })),
    { id: systemStepIds.scheduled, name: 'Scheduled', codename: 'scheduled', transitions_to: [] },
    { id: systemStepIds.published, name: 'Published', codename: 'published', transitions_to: [] },
    { id: systemStepIds.archived, name: 'Archived', codename: 'archived', transitions_to: [] },
  ];
}

function requireWorkflow(tx: UnitOfWork, projectId: string, key: RecordKey, isForUpdate = false) {
  return requireModel<WorkflowBody>(tx, {
    projectId,
    kind: 'workflow',
    key,
    notFound: 'WORKFLOW_NOT_FOUND',
    noun: 'workflow',
    isForUpdate,
  });
}

export async function listWorkflows(deps: CoreDeps, input: ModelInput): Promise<WorkflowRecord[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => tx.model.list<WorkflowBody>(input.projectId, 'workflow'));
}

export async function getWorkflow(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<WorkflowRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => requireWorkflow(tx, input.projectId, input.key));
}

export async function addWorkflow(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<WorkflowRecord> {
  return writeModel(deps, input, 'workflow', async (tx) => {
    const problems = new Problems();
    const read = await readWorkflowBody(tx, {
      projectId: input.projectId,
      body: input.body,
      existingSteps: [],
      newId: () => deps.ids.uuid(),
      problems,
    });
    problems.throwIfAny();
    const parsed = read as NonNullable<typeof read>;
    const all = await tx.model.list<WorkflowBody>(input.projectId, 'workflow');
    if (parsed.codename !== undefined && all.some((w) => w.codename === parsed.codename))
      problems.add('codename', `The codename '${parsed.codename}' is already used by another workflow.`);
    problems.throwIfAny();
    return createModel(tx, {
      projectId: input.projectId,
      kind: 'workflow',
      id: deps.ids.uuid(),
      name: parsed.name,
      codename: parsed.codename,
      externalId: null,
      body: parsed.body,
      siblings: all,
      now: deps.clock.now(),
    });
  });
}

/** PUT a workflow: replaces it whole; an absent codename keeps the current one. */
export async function updateWorkflow(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; body: unknown },
): Promise<WorkflowRecord> {
  return writeModel(deps, input, 'workflow', async (tx) => {
    const current = await requireWorkflow(tx, input.projectId, input.key, true);
    const problems = new Problems();
    const read = await readWorkflowBody(tx, {
      projectId: input.projectId,
      body: input.body,
      existingSteps: current.body.steps,
      newId: () => deps.ids.uuid(),
      problems,
    });
    problems.throwIfAny();
    const parsed = read as NonNullable<typeof read>;
    const codename = parsed.codename ?? current.codename;
    const all = await tx.model.list<WorkflowBody>(input.projectId, 'workflow');
    if (all.some((w) => w.id !== current.id && w.codename === codename))
      problems.add('codename', `The codename '${codename}' is already used by another workflow.`);
    const kept = new Set(parsed.body.steps.map((s) => s.id));
    const removed = current.body.steps.filter((s) => !kept.has(s.id));
    const holding = await tx.variants.countInWorkflow(
      input.projectId,
      current.id,
      removed.map((s) => s.id),
    );
    if (holding > 0)
      problems.add(
        'steps',
        `The step(s) ${removed.map((s) => `'${s.codename}'`).join(', ')} hold ${holding} language variant(s) and cannot be removed. Move those variants to another step first.`,
      );
    problems.throwIfAny();
    const next: WorkflowRecord = { ...current, codename, body: parsed.body, lastModified: deps.clock.now() };
    await commitModel(tx, 'update', next);
    return next;
  });
}

export async function deleteWorkflow(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  await deleteModel(deps, input, {
    kind: 'workflow',
    require: (tx) => requireWorkflow(tx, input.projectId, input.key, true),
    assertUnused: async (tx, current) => {
      if (current.id === zeroId) throw new LecternError('DEFAULT_WORKFLOW_NOT_DELETABLE');
      const holding = await tx.variants.countInWorkflow(input.projectId, current.id);
      if (holding > 0)
        throw new LecternError('INVALID_REQUEST_BODY', {
          message: `The workflow '${current.codename}' is used by ${holding} language variant(s) and cannot be deleted. Move those variants to another workflow first.`,
        });
    },
  });
}

/** The default workflow, for the legacy `GET /workflow`. */
export async function getDefaultWorkflow(deps: CoreDeps, input: ModelInput): Promise<WorkflowRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => requireWorkflow(tx, input.projectId, { id: zeroId }));
}
