import type { ChangeChannel } from '../../domain/change-event.ts';
import { systemStepIds } from '../../model/defaults.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { recordVersion } from '../history/record-version.ts';
import { contentEvents } from '../items/events.ts';
import type { LoadedVariant } from '../variants/load.ts';
import type { VariantRecord } from '../variants/variant-record.ts';
import { firstStepOf } from './workflow-state.ts';

type Loaded = LoadedVariant & { variant: VariantRecord };

/**
 * Saves a variant after a workflow action and appends its events. Workflow moves leave
 * `last_modified` alone (SPEC 2.2).
 */
export async function saveTransition(
  tx: UnitOfWork,
  loaded: Loaded,
  next: VariantRecord,
  event: { operation: string; channels: readonly ChangeChannel[]; at: Date },
): Promise<void> {
  await tx.variants.save(next);
  await recordVersion(tx, {
    actor: loaded.actor,
    via: loaded.via,
    before: loaded.variant,
    after: next,
    operation: event.operation,
    at: event.at,
  });
  const events = contentEvents(event.operation, event.channels, loaded.item, {
    typeCodename: loaded.type.record.codename,
    language: { id: loaded.language.id, codename: loaded.language.codename },
    workflow: { workflowId: next.workflowId, stepId: next.stepId },
    // Where the variant came from: webhook notifications name it (`action_context`, `transition_from`).
    extra: { previous_workflow_id: loaded.variant.workflowId, previous_step_id: loaded.variant.stepId },
  });
  await tx.outbox.append(loaded.item.projectId, events, event.at);
}

/** Drops the variant's scheduled job of that kind, if any. */
export async function cancelJob(tx: UnitOfWork, v: VariantRecord, action: 'publish' | 'unpublish'): Promise<void> {
  await tx.scheduledJobs.cancel({ projectId: v.projectId, itemId: v.itemId, languageId: v.languageId, action });
}

/** Publishes the latest version now: it becomes the published version too. */
export async function applyPublish(tx: UnitOfWork, loaded: Loaded, at: Date): Promise<void> {
  const v = loaded.variant;
  await cancelJob(tx, v, 'publish');
  const next: VariantRecord = {
    ...v,
    stepId: systemStepIds.published,
    published: { elements: v.elements, lastModified: v.lastModified.toISOString(), workflowId: v.workflowId },
    schedule: { ...v.schedule, publish_time: null, publish_display_timezone: null },
  };
  await saveTransition(tx, loaded, next, {
    operation: 'publish',
    channels: ['delivery_production', 'delivery_preview'],
    at,
  });
}

/**
 * Takes the published version down. When the latest version is the published one it moves to
 * Archived (or, for the deprecated `/unpublish`, to its workflow's first step); a newer version
 * being edited stays where it is.
 */
export async function applyUnpublish(
  tx: UnitOfWork,
  loaded: Loaded,
  at: Date,
  options: { toStep?: 'archived' | 'first' } = {},
): Promise<void> {
  const v = loaded.variant;
  await cancelJob(tx, v, 'unpublish');
  const landing = options.toStep === 'first' ? await firstStepFor(loaded) : systemStepIds.archived;
  const next: VariantRecord = {
    ...v,
    stepId: v.stepId === systemStepIds.published ? landing : v.stepId,
    published: null,
    schedule: { ...v.schedule, unpublish_time: null, unpublish_display_timezone: null },
  };
  await saveTransition(tx, loaded, next, {
    operation: 'unpublish',
    channels: ['delivery_production', 'delivery_preview'],
    at,
  });
}

/** The first step of the variant's workflow (where a new version or a cancelled schedule lands). */
export async function firstStepFor(loaded: Loaded): Promise<string> {
  const workflow = (await loaded.lookups.workflows()).find((w) => w.id === loaded.variant.workflowId);
  return workflow ? firstStepOf(workflow) : systemStepIds.draft;
}
