import { auditObject } from '../../audit/audit-entry.ts';
import { LecternError } from '@lectern/errors';
import type { ModelRecord } from '../../domain/model-record.ts';
import { isUuid } from '../../domain/uuid.ts';
import type { CoreDeps } from '../../deps.ts';
import {
  assertModelAccess,
  paginate,
  type Continuation,
  type ModelInput,
  type Page,
} from '../../model/shared/index.ts';
import { operator } from '../../domain/actor.ts';
import type { TaskHandler } from '../../tasks/task-runner.ts';
import { validateProjectContent, type TypeIssue, type VariantIssue } from './validate.ts';

/*
 * Asynchronous content validation (reference §2.1 validate-async): a task document of kind
 * `validation_task` per request, queued with a background task of the same id that any process's
 * task runner does (`validationTaskHandler`): it stores the issues with the document (finished) or
 * marks it failed. A task whose runner stopped is taken over by another when its lease ends. Any
 * process reads a task and its issues; tasks are kept 7 days.
 */

export type TaskStatus = 'queued' | 'finished' | 'failed';
export type TaskResult = 'none' | 'no_issues' | 'issues_found';
export type TaskIssue = ({ issue_type: 'type_issue' } & TypeIssue) | ({ issue_type: 'variant_issue' } & VariantIssue);

export interface ValidationTaskBody {
  status: TaskStatus;
  validation_result: TaskResult;
  created_at: string;
  issues: TaskIssue[];
}

export type ValidationTaskRecord = ModelRecord<ValidationTaskBody>;

const keepMs = 7 * 24 * 3_600_000;
export const validationIssuesPageSize = 50;

export function validationTaskJson(r: ValidationTaskRecord) {
  return { id: r.id, status: r.body.status, validation_result: r.body.validation_result };
}

/** POST validate-async: a queued task, with the background task that runs it. */
export async function startValidation(deps: CoreDeps, input: ModelInput): Promise<ValidationTaskRecord> {
  assertModelAccess(input.actor, input.projectId);
  const now = deps.clock.now();
  const id = deps.ids.uuid();
  const record: ValidationTaskRecord = {
    projectId: input.projectId,
    kind: 'validation_task',
    id,
    codename: `task_${id.replaceAll('-', '')}`,
    externalId: null,
    body: { status: 'queued', validation_result: 'none', created_at: now.toISOString(), issues: [] },
    lastModified: now,
  };
  await deps.store.transaction(async (tx) => {
    // Tasks past their 7 days go when a new one starts.
    for (const old of await tx.model.list<ValidationTaskBody>(input.projectId, 'validation_task'))
      if (now.getTime() - Date.parse(old.body.created_at) > keepMs)
        await tx.model.delete(input.projectId, 'validation_task', old.id);
    await tx.model.insert(record);
    await tx.backgroundTasks.insert({ id, projectId: input.projectId, kind: 'validation', input: {}, createdAt: now });
    tx.audit.note({
      projectId: input.projectId,
      action: 'validation.start',
      object: auditObject('validation_task', { id }),
    });
  });
  return record;
}

/**
 * Runs a validation task: validates the project (reading only), then stores the outcome with the
 * task document in the step that ends the background task, so a run that stops before changes
 * nothing and the next runner starts over.
 */
export const validationTaskHandler: TaskHandler = {
  async run(deps, ctx) {
    const projectId = ctx.task.projectId;
    const report = await validateProjectContent(deps, { actor: operator, projectId });
    const issues: TaskIssue[] = [
      ...report.typeIssues.map((t) => ({ issue_type: 'type_issue' as const, ...t })),
      ...report.variantIssues.map((v) => ({ issue_type: 'variant_issue' as const, ...v })),
    ];
    await ctx.step(async (tx) => {
      const doc = await tx.model.find<ValidationTaskBody>(projectId, 'validation_task', { id: ctx.task.id });
      if (doc)
        await tx.model.update({
          ...doc,
          body: {
            ...doc.body,
            status: 'finished',
            validation_result: issues.length > 0 ? 'issues_found' : 'no_issues',
            issues,
          },
          lastModified: deps.clock.now(),
        });
      return { state: {}, done: 1, total: 1 };
    });
  },
  async fail(deps, task) {
    await deps.store.transaction(async (tx) => {
      const doc = await tx.model.find<ValidationTaskBody>(task.projectId, 'validation_task', { id: task.id });
      if (doc)
        await tx.model.update({ ...doc, body: { ...doc.body, status: 'failed' }, lastModified: deps.clock.now() });
    });
  },
};

async function requireTask(deps: CoreDeps, input: ModelInput & { taskId: string }): Promise<ValidationTaskRecord> {
  assertModelAccess(input.actor, input.projectId);
  const found = isUuid(input.taskId)
    ? await deps.store.transaction((tx) =>
        tx.model.find<ValidationTaskBody>(input.projectId, 'validation_task', { id: input.taskId.toLowerCase() }),
      )
    : null;
  if (!found || deps.clock.now().getTime() - Date.parse(found.body.created_at) > keepMs)
    throw new LecternError('VALIDATION_TASK_NOT_FOUND');
  return found;
}

export function getValidationTask(
  deps: CoreDeps,
  input: ModelInput & { taskId: string },
): Promise<ValidationTaskRecord> {
  return requireTask(deps, input);
}

/** The task's issues, type issues first, 50 a page (none until it has finished). */
export async function listValidationIssues(
  deps: CoreDeps,
  input: ModelInput & { taskId: string; continuation?: Continuation | undefined },
): Promise<Page<TaskIssue>> {
  const task = await requireTask(deps, input);
  return paginate(task.body.issues, { continuation: input.continuation, pageSize: validationIssuesPageSize });
}
