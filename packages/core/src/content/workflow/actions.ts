import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import { systemStepIds } from '../../model/defaults.ts';
import { isRecord, Problems } from '../../model/shared/index.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { loadExistingVariant, type VariantInput } from '../variants/load.ts';
import { formatInstant, readTimeZone } from '../variants/value-rules.ts';
import type { VariantRecord } from '../variants/variant-record.ts';
import { assertPersonWorkflowAction, type PersonWorkflowAction } from './person-workflow-rules.ts';
import { checkPublishable } from './required.ts';
import { readVariantMeta, readWorkflowTarget } from './targets.ts';
import { applyPublish, applyUnpublish, cancelJob, firstStepFor, saveTransition } from './transitions.ts';

export type ActionInput = VariantInput & { body?: unknown };

/** True for an absent body (the SDK sends none), `{}` and null. */
export function isEmptyBody(body: unknown): boolean {
  return body === undefined || body === null || (isRecord(body) && Object.keys(body).length === 0);
}

/** `{scheduled_to, display_timezone?}`: a future instant and an IANA zone kept as sent. */
function readSchedule(body: unknown, now: Date): { at: Date; zone: string | null } {
  const problems = new Problems();
  const raw = isRecord(body) ? body : {};
  if (!isRecord(body))
    problems.add(undefined, 'The body must be empty or an object {"scheduled_to", "display_timezone"}.');
  const value = raw['scheduled_to'];
  const at = typeof value === 'string' && /\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) problems.add('scheduled_to', 'must be an ISO-8601 date and time');
  else if (at.getTime() <= now.getTime())
    problems.add('scheduled_to', 'The provided date-time value needs to be in the future.');
  const zone = readTimeZone(raw['display_timezone'], 'display_timezone', problems);
  problems.throwIfAny();
  return { at: at as Date, zone };
}

export async function withVariant(
  deps: CoreDeps,
  input: ActionInput,
  work: (tx: UnitOfWork, loaded: Awaited<ReturnType<typeof loadExistingVariant>>, now: Date) => Promise<void>,
): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const loaded = await loadExistingVariant(tx, input, { isForUpdate: true });
    await work(tx, loaded, deps.clock.now());
  });
}

/** The person rules of `person-workflow-rules.ts` for `action` on the loaded variant. */
async function assertPersonMay(
  tx: UnitOfWork,
  input: ActionInput,
  loaded: Awaited<ReturnType<typeof loadExistingVariant>>,
  action: PersonWorkflowAction,
): Promise<void> {
  if (input.actor.type !== 'person') return;
  await assertPersonWorkflowAction(tx, {
    actor: input.actor,
    variant: loaded.variant,
    workflows: await loaded.lookups.workflows(),
    action,
  });
}

/**
 * PUT …/publish (reference §2.4): without a body publishes the latest version now; with
 * `scheduled_to` moves it to Scheduled and leaves a job for the scheduler. Required elements and
 * count limits are checked first (400 with validation_errors).
 */
export async function publishVariant(deps: CoreDeps, input: ActionInput): Promise<void> {
  await withVariant(deps, input, async (tx, loaded, now) => {
    const v = loaded.variant;
    if (v.stepId === systemStepIds.published)
      throw new LecternError('PUBLISH_NOT_ALLOWED', {
        message: 'The language variant is already published. Create a new version to change it.',
      });
    const schedule = isEmptyBody(input.body) ? null : readSchedule(input.body, now);
    await assertPersonMay(tx, input, loaded, { kind: 'publish' });
    const problems = new Problems();
    checkPublishable(loaded.type.elements, v.elements, problems);
    problems.throwIfAny(
      'INVALID_REQUEST_BODY',
      'The language variant cannot be published: some elements are not valid. See validation_errors.',
    );
    if (!schedule) return applyPublish(tx, loaded, now);
    const time = formatInstant(schedule.at);
    await cancelJob(tx, v, 'publish');
    await tx.scheduledJobs.insert({
      id: deps.ids.uuid(),
      projectId: v.projectId,
      itemId: v.itemId,
      languageId: v.languageId,
      action: 'publish',
      dueAt: schedule.at,
    });
    const next: VariantRecord = {
      ...v,
      stepId: systemStepIds.scheduled,
      schedule: { ...v.schedule, publish_time: time, publish_display_timezone: schedule.zone },
    };
    await saveTransition(tx, loaded, next, { operation: 'schedule_publish', channels: ['delivery_preview'], at: now });
  });
}

/** PUT …/unpublish-and-archive: now, or scheduled with `scheduled_to` (also for a variant scheduled to publish). */
export async function unpublishVariant(deps: CoreDeps, input: ActionInput): Promise<void> {
  await withVariant(deps, input, async (tx, loaded, now) => {
    const v = loaded.variant;
    const schedule = isEmptyBody(input.body) ? null : readSchedule(input.body, now);
    if (!v.published && !(schedule && v.stepId === systemStepIds.scheduled))
      throw new LecternError('UNPUBLISH_NOT_PUBLISHED');
    await assertPersonMay(tx, input, loaded, { kind: 'unpublish' });
    if (!schedule) return applyUnpublish(tx, loaded, now);
    if (v.schedule.publish_time !== null && Date.parse(v.schedule.publish_time) >= schedule.at.getTime())
      throw new LecternError('INVALID_REQUEST_BODY', {
        problems: [{ path: 'scheduled_to', message: 'The unpublish time must be after the scheduled publish time.' }],
      });
    await cancelJob(tx, v, 'unpublish');
    await tx.scheduledJobs.insert({
      id: deps.ids.uuid(),
      projectId: v.projectId,
      itemId: v.itemId,
      languageId: v.languageId,
      action: 'unpublish',
      dueAt: schedule.at,
    });
    const next: VariantRecord = {
      ...v,
      schedule: {
        ...v.schedule,
        unpublish_time: formatInstant(schedule.at),
        unpublish_display_timezone: schedule.zone,
      },
    };
    await saveTransition(tx, loaded, next, {
      operation: 'schedule_unpublish',
      channels: ['delivery_preview'],
      at: now,
    });
  });
}

/** PUT …/cancel-scheduled-publish: back to the workflow's first step (218 when not scheduled). */
export async function cancelScheduledPublish(deps: CoreDeps, input: ActionInput): Promise<void> {
  await withVariant(deps, input, async (tx, loaded, now) => {
    const v = loaded.variant;
    if (v.stepId !== systemStepIds.scheduled) throw new LecternError('NOT_SCHEDULED');
    await cancelJob(tx, v, 'publish');
    const next: VariantRecord = {
      ...v,
      stepId: await firstStepFor(loaded),
      schedule: { ...v.schedule, publish_time: null, publish_display_timezone: null },
    };
    await saveTransition(tx, loaded, next, {
      operation: 'cancel_scheduled_publish',
      channels: ['delivery_preview'],
      at: now,
    });
  });
}

/** PUT …/cancel-scheduled-unpublish (218 when no unpublish is scheduled). */
export async function cancelScheduledUnpublish(deps: CoreDeps, input: ActionInput): Promise<void> {
  await withVariant(deps, input, async (tx, loaded, now) => {
    const v = loaded.variant;
    if (v.schedule.unpublish_time === null)
      throw new LecternError('NOT_SCHEDULED', {
        message: 'Cannot cancel scheduling of a language variant that is not scheduled to unpublish.',
      });
    await cancelJob(tx, v, 'unpublish');
    const next: VariantRecord = {
      ...v,
      schedule: { ...v.schedule, unpublish_time: null, unpublish_display_timezone: null },
    };
    await saveTransition(tx, loaded, next, {
      operation: 'cancel_scheduled_unpublish',
      channels: ['delivery_preview'],
      at: now,
    });
  });
}

/** PUT …/new-version: a published variant without a draft gets an editable copy in the first step (214 otherwise). */
export async function createNewVersion(deps: CoreDeps, input: ActionInput): Promise<void> {
  await withVariant(deps, input, async (tx, loaded, now) => {
    const v = loaded.variant;
    if (v.stepId !== systemStepIds.published) throw new LecternError('NEW_VERSION_NOT_PUBLISHED');
    await assertPersonMay(tx, input, loaded, { kind: 'new_version' });
    const next: VariantRecord = { ...v, stepId: await firstStepFor(loaded) };
    await saveTransition(tx, loaded, next, { operation: 'new_version', channels: ['delivery_preview'], at: now });
  });
}

/**
 * PUT …/change-workflow `{workflow_identifier, step_identifier, due_date?, contributors?, note?}`.
 * Published and Scheduled are not targets (215), and a published or scheduled variant does not move.
 */
export async function changeWorkflow(deps: CoreDeps, input: ActionInput): Promise<void> {
  await withVariant(deps, input, async (tx, loaded, now) => {
    const v = loaded.variant;
    const problems = new Problems();
    const target = await readWorkflowTarget({
      lookups: loaded.lookups,
      raw: input.body,
      path: '',
      problems,
      item: loaded.item,
    });
    if (v.stepId === systemStepIds.published || v.stepId === systemStepIds.scheduled)
      throw new LecternError('VARIANT_NOT_EDITABLE', {
        message:
          'A published or scheduled language variant cannot change workflow step. Create a new version or cancel the scheduling first.',
      });
    const meta = isRecord(input.body) ? await readVariantMeta(loaded.lookups, input.body, problems) : {};
    problems.throwIfAny();
    if (!target) return;
    await assertPersonMay(tx, input, loaded, { kind: 'move', ...target });
    const next: VariantRecord = {
      ...v,
      workflowId: target.workflowId,
      stepId: target.stepId,
      ...(meta.dueDate !== undefined ? { dueDate: meta.dueDate } : {}),
      ...(meta.contributors !== undefined ? { contributors: meta.contributors } : {}),
      ...(meta.note !== undefined ? { note: meta.note } : {}),
    };
    await saveTransition(tx, loaded, next, {
      operation: 'change_workflow_step',
      channels: ['delivery_preview'],
      at: now,
    });
  });
}
