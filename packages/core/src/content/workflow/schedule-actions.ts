import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import { systemStepIds } from '../../model/defaults.ts';
import { isRecord, Problems } from '../../model/shared/index.ts';
import { formatInstant, readTimeZone } from '../variants/value-rules.ts';
import type { VariantRecord } from '../variants/variant-record.ts';
import { withVariant, type ActionInput } from './actions.ts';
import { checkPublishable } from './required.ts';
import { applyUnpublish, cancelJob, saveTransition } from './transitions.ts';

/*
 * The newer variant actions of reference §2.4: the deprecated `/unpublish` (back to the first
 * step instead of Archived) and `/schedule-publish-and-unpublish` (both times in one request;
 * each becomes one job of the scheduler, which applies it exactly once).
 */

/** PUT …/unpublish: the published version goes down now; the variant returns to its first step (213 when not published). */
export async function unpublishToDraft(deps: CoreDeps, input: ActionInput): Promise<void> {
  await withVariant(deps, input, async (tx, loaded, now) => {
    if (!loaded.variant.published) throw new LecternError('UNPUBLISH_NOT_PUBLISHED');
    await applyUnpublish(tx, loaded, now, { toStep: 'first' });
  });
}

function readInstant(value: unknown, path: string, now: Date, problems: Problems): Date | null {
  if (value === undefined || value === null) return null;
  const at = typeof value === 'string' && /\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) problems.add(path, 'must be an ISO-8601 date and time');
  else if (at.getTime() <= now.getTime()) problems.add(path, 'The provided date-time value needs to be in the future.');
  else return at;
  return null;
}

/**
 * PUT …/schedule-publish-and-unpublish `{publish_scheduled_to?, publish_display_timezone?,
 * unpublish_scheduled_to?, unpublish_display_timezone?}`: at least one time. A publish time moves
 * the variant to Scheduled (it must be publishable and not published); an unpublish time needs a
 * published variant or a publish time before it. Either replaces a schedule of the same kind.
 */
export async function schedulePublishAndUnpublish(deps: CoreDeps, input: ActionInput): Promise<void> {
  await withVariant(deps, input, async (tx, loaded, now) => {
    const v = loaded.variant;
    const problems = new Problems();
    const body = isRecord(input.body) ? input.body : {};
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    const publishAt = readInstant(body['publish_scheduled_to'], 'publish_scheduled_to', now, problems);
    const publishZone = readTimeZone(body['publish_display_timezone'], 'publish_display_timezone', problems);
    const unpublishAt = readInstant(body['unpublish_scheduled_to'], 'unpublish_scheduled_to', now, problems);
    const unpublishZone = readTimeZone(body['unpublish_display_timezone'], 'unpublish_display_timezone', problems);
    const hasPublish = body['publish_scheduled_to'] !== undefined && body['publish_scheduled_to'] !== null;
    const hasUnpublish = body['unpublish_scheduled_to'] !== undefined && body['unpublish_scheduled_to'] !== null;
    if (!hasPublish && !hasUnpublish)
      problems.add(undefined, 'Provide publish_scheduled_to, unpublish_scheduled_to or both.');
    problems.throwIfAny();
    if (publishAt && v.stepId === systemStepIds.published)
      throw new LecternError('PUBLISH_NOT_ALLOWED', {
        message: 'The language variant is already published. Create a new version to schedule its publishing.',
      });
    const effectivePublish =
      publishAt ??
      (v.stepId === systemStepIds.scheduled && v.schedule.publish_time ? new Date(v.schedule.publish_time) : null);
    if (unpublishAt && !v.published && !effectivePublish) throw new LecternError('UNPUBLISH_NOT_PUBLISHED');
    if (unpublishAt && effectivePublish && unpublishAt.getTime() <= effectivePublish.getTime())
      throw new LecternError('INVALID_REQUEST_BODY', {
        problems: [{ path: 'unpublish_scheduled_to', message: 'The unpublish time must be after the publish time.' }],
      });
    if (publishAt) {
      checkPublishable(loaded.type.elements, v.elements, problems);
      problems.throwIfAny(
        'INVALID_REQUEST_BODY',
        'The language variant cannot be published: some elements are not valid. See validation_errors.',
      );
    }
    let next: VariantRecord = { ...v, schedule: { ...v.schedule } };
    const job = async (action: 'publish' | 'unpublish', dueAt: Date) => {
      await cancelJob(tx, v, action);
      await tx.scheduledJobs.insert({
        id: deps.ids.uuid(),
        projectId: v.projectId,
        itemId: v.itemId,
        languageId: v.languageId,
        action,
        dueAt,
      });
    };
    if (publishAt) {
      await job('publish', publishAt);
      next = {
        ...next,
        stepId: systemStepIds.scheduled,
        schedule: { ...next.schedule, publish_time: formatInstant(publishAt), publish_display_timezone: publishZone },
      };
    }
    if (unpublishAt) {
      await job('unpublish', unpublishAt);
      next = {
        ...next,
        schedule: {
          ...next.schedule,
          unpublish_time: formatInstant(unpublishAt),
          unpublish_display_timezone: unpublishZone,
        },
      };
    }
    await saveTransition(tx, loaded, next, {
      operation: publishAt ? 'schedule_publish' : 'schedule_unpublish',
      channels: ['delivery_preview'],
      at: now,
    });
  });
}
