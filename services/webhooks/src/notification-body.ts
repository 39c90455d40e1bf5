import { assertNever, systemStepIds, type ChangeEvent, type UnitOfWork } from '@lectern/core';
import type { NotificationKind } from './event-map.ts';
import type { NotificationSubject } from './trigger-match.ts';

/*
 * What a notification says, read when it is materialised: the event's payload names ids and some
 * codenames; names and the codenames of collection, workflow and step come from the store (an
 * object deleted since falls back to what the event carries).
 */

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const systemStepCodenames: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(systemStepIds).map(([codename, id]) => [id, codename]),
);

/** Reads what the notifications of one event need, once per event. */
export class EventFacts {
  readonly #tx: UnitOfWork;
  readonly event: ChangeEvent;
  #system: Promise<Record<string, unknown>> | null = null;

  constructor(tx: UnitOfWork, event: ChangeEvent) {
    this.#tx = tx;
    this.event = event;
  }

  /** The ids the trigger filters test. */
  subject(kind: NotificationKind): NotificationSubject {
    const p = this.event.payload;
    const id = this.event.objectId ?? undefined;
    const base = { ...kind };
    switch (kind.objectType) {
      case 'content_item': {
        const workflowId = str(p['workflow_id']);
        const stepId = str(p['step_id']);
        return {
          ...base,
          ...optional('collectionId', str(p['collection_id'])),
          ...optional('typeId', str(p['type_id'])),
          ...optional('languageId', str(p['language_id'])),
          ...(workflowId !== undefined && stepId !== undefined ? { stepTo: { workflowId, stepId } } : {}),
        };
      }
      case 'content_type':
        return { ...base, ...optional('typeId', id) };
      case 'taxonomy':
        return { ...base, ...optional('taxonomyId', id) };
      case 'language':
        return { ...base, ...optional('languageId', id) };
      case 'asset':
        return base;
      default:
        return assertNever(kind, 'webhook object type');
    }
  }

  workflowStep(workflowId: string | undefined, stepId: string | undefined) {
    return readWorkflowStep(this.#tx, { projectId: this.event.projectId, workflowId, stepId });
  }

  /** `data.system` of the current format (delivery-apis.md §4.1). */
  system(): Promise<Record<string, unknown>> {
    this.#system ??= this.#readSystem();
    return this.#system;
  }

  async #readSystem(): Promise<Record<string, unknown>> {
    const { event } = this;
    const p = event.payload;
    const projectId = event.projectId;
    const id = event.objectId ?? '';
    const lastModified = event.occurredAt.toISOString();
    if (event.objectKind === 'variant' || event.objectKind === 'item') {
      const item = await this.#tx.items.find(projectId, { id });
      const collectionId = str(p['collection_id']) ?? item?.collectionId;
      const collection =
        collectionId === undefined ? null : await this.#tx.model.find(projectId, 'collection', { id: collectionId });
      const { workflow, step } = await this.workflowStep(str(p['workflow_id']), str(p['step_id']));
      return {
        id,
        name: item?.name ?? str(p['item_codename']) ?? '',
        codename: item?.codename ?? str(p['item_codename']) ?? '',
        collection: collection?.codename ?? 'default',
        workflow: workflow ?? 'default',
        workflow_step: step ?? 'draft',
        language: str(p['language_codename']) ?? 'default',
        type: str(p['type_codename']) ?? '',
        last_modified: lastModified,
      };
    }
    if (event.objectKind === 'asset') {
      const asset = await this.#tx.assets.find(projectId, { id });
      const codename = asset?.codename ?? str(p['codename']) ?? '';
      return { id, name: asset?.title ?? codename, codename, last_modified: lastModified };
    }
    const kind = event.objectKind as 'content_type' | 'taxonomy' | 'language';
    const record = await this.#tx.model.find<{ name?: string }>(projectId, kind, { id });
    const codename = record?.codename ?? str(p['codename']) ?? '';
    return { id, name: record?.body.name ?? codename, codename, last_modified: lastModified };
  }
}

/** Codenames of a workflow and one of its steps (system steps by their fixed ids). */
async function readWorkflowStep(
  tx: UnitOfWork,
  options: { projectId: string; workflowId: string | undefined; stepId: string | undefined },
): Promise<{ workflow: string | undefined; step: string | undefined }> {
  const { workflowId, stepId } = options;
  const record =
    workflowId === undefined
      ? null
      : await tx.model.find<{ steps: { id: string; codename: string }[] }>(options.projectId, 'workflow', {
          id: workflowId,
        });
  const step =
    stepId === undefined
      ? undefined
      : (systemStepCodenames[stepId] ?? record?.body.steps.find((s) => s.id === stepId)?.codename);
  return { workflow: record?.codename, step };
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

/** One current-format notification: `data.system` and `message` (delivery-apis.md §4.1). */
export async function currentNotification(facts: EventFacts, kind: NotificationKind): Promise<Record<string, unknown>> {
  const p = facts.event.payload;
  let actionContext = {};
  if (kind.action === 'workflow_step_changed') {
    const previous = await facts.workflowStep(str(p['previous_workflow_id']), str(p['previous_step_id']));
    if (previous.workflow !== undefined && previous.step !== undefined)
      actionContext = {
        action_context: { previous_workflow: previous.workflow, previous_workflow_step: previous.step },
      };
  }
  return {
    data: { system: await facts.system() },
    message: {
      environment_id: facts.event.projectId,
      object_type: kind.objectType,
      action: kind.action,
      delivery_slot: kind.slot,
      ...actionContext,
    },
  };
}
