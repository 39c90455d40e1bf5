import type { ChangeEvent, LegacyApiName, LegacyObjectType, LegacyOperation, LegacyTriggerList } from '@lectern/core';
import type { EventFacts } from './notification-body.ts';

/*
 * The legacy notification format of SPEC 2.10 (delivery-apis.md §4.3), sent by webhooks registered
 * through `/webhooks`: one notification per POST, `data.items` / `data.taxonomies` and a `message`
 * naming the API whose content changed, the object type and the operation.
 */

/** A legacy notification: which trigger list asks for it, and what its message says. */
export type LegacyKind = {
  readonly [L in LegacyTriggerList]: {
    readonly list: L;
    readonly type: LegacyObjectType;
    readonly operation: LegacyOperation<L>;
    readonly apiName: LegacyApiName;
  };
}[LegacyTriggerList];

type Operations<L extends LegacyTriggerList> = Readonly<Record<string, LegacyOperation<L>>>;
const publishedOps: Operations<'delivery_api_content_changes'> = {
  publish: 'publish',
  unpublish: 'unpublish',
  delete: 'unpublish',
};
const previewOps: Operations<'preview_delivery_api_content_changes'> = {
  create: 'upsert',
  upsert: 'upsert',
  delete: 'archive',
};
const managementOps: Operations<'management_api_content_changes'> = { create: 'create', delete: 'archive' };
/** Taxonomy operations: ones both delivery lists may carry. */
const taxonomyOps: Readonly<Record<string, LegacyOperation<'preview_delivery_api_content_changes'>>> = {
  create: 'upsert',
  update: 'upsert',
  delete: 'archive',
};

const workflowMoves = new Set(['change_workflow_step', 'publish', 'unpublish', 'new_version', 'schedule_publish']);

/** The legacy notifications a change event stands for (the migration guide's mapping, reversed). */
export function legacyKinds(event: ChangeEvent): LegacyKind[] {
  const { objectKind, operation, channel } = event;
  if (objectKind === 'variant') {
    if (channel === 'delivery_production') {
      const op = publishedOps[operation];
      return op === undefined
        ? []
        : [
            {
              list: 'delivery_api_content_changes',
              type: 'content_item_variant',
              operation: op,
              apiName: 'delivery_production',
            },
          ];
    }
    if (channel !== 'delivery_preview') return [];
    const kinds: LegacyKind[] = [];
    const previewOp = previewOps[operation];
    if (previewOp !== undefined)
      kinds.push({
        list: 'preview_delivery_api_content_changes',
        type: 'content_item_variant',
        operation: previewOp,
        apiName: 'delivery_preview',
      });
    const managementOp = managementOps[operation];
    if (managementOp !== undefined)
      kinds.push({
        list: 'management_api_content_changes',
        type: 'content_item_variant',
        operation: managementOp,
        apiName: 'content_management',
      });
    if (workflowMoves.has(operation))
      kinds.push({
        list: 'workflow_step_changes',
        type: 'content_item_variant',
        operation: 'change_workflow_step',
        apiName: 'content_management',
      });
    return kinds;
  }
  if (objectKind === 'taxonomy') {
    const op = taxonomyOps[operation];
    if (op === undefined) return [];
    return [
      { list: 'delivery_api_content_changes', type: 'taxonomy', operation: op, apiName: 'delivery_production' },
      { list: 'preview_delivery_api_content_changes', type: 'taxonomy', operation: op, apiName: 'delivery_preview' },
    ];
  }
  return [];
}

type Entry = { type?: unknown; operations?: unknown; transitions_to?: { id?: unknown }[] };

/** Whether a legacy webhook's `triggers` ask for this notification of this event. */
export function matchesLegacyTriggers(
  triggers: Readonly<Record<string, unknown>>,
  kind: LegacyKind,
  event: ChangeEvent,
): boolean {
  const entries = (triggers[kind.list] ?? []) as Entry[];
  return entries.some((e) => {
    if (e.type !== kind.type) return false;
    if (kind.list !== 'workflow_step_changes')
      return Array.isArray(e.operations) && e.operations.includes(kind.operation);
    const to = e.transitions_to ?? [];
    return to.length === 0 || to.some((t) => t.id === event.payload['step_id']);
  });
}

/** A legacy notification without `message.webhook_url` (added when sent: the URL may change meanwhile). */
export async function legacyNotification(
  facts: EventFacts,
  kind: LegacyKind,
  options: { id: string },
): Promise<Record<string, unknown>> {
  const { event } = facts;
  const p = event.payload;
  const message = {
    id: options.id,
    project_id: event.projectId,
    type: kind.type,
    operation: kind.operation,
    api_name: kind.apiName,
    created_timestamp: event.occurredAt.toISOString(),
  };
  if (kind.type === 'taxonomy') {
    const system = await facts.system();
    return { data: { items: [], taxonomies: [{ id: system['id'], codename: system['codename'] }] }, message };
  }
  if (kind.operation === 'change_workflow_step') {
    const item = {
      item: { id: event.objectId },
      language: { id: p['language_id'] },
      ...(typeof p['previous_step_id'] === 'string' ? { transition_from: { id: p['previous_step_id'] } } : {}),
      transition_to: { id: p['step_id'] },
    };
    return { data: { items: [item] }, message };
  }
  const system = await facts.system();
  const item = {
    id: event.objectId,
    codename: system['codename'],
    collection: system['collection'],
    language: system['language'],
    type: system['type'],
  };
  return { data: { items: [item], taxonomies: [] }, message };
}
