import {
  deliverySlots,
  isOneOf,
  webhookActions,
  type ChangeEvent,
  type DeliverySlot,
  type TaxonomyAction,
  type WebhookAction,
  type WebhookEvent,
} from '@lectern/core';

/** What a current-format notification says happened (delivery-apis.md §4.1). */
export type NotificationKind = WebhookEvent & { readonly slot: DeliverySlot };

const slotOf = { delivery_production: 'published', delivery_preview: 'preview' } as const;

/** Variant operations whose event on the preview channel is a move between workflow steps. */
const stepMoves = new Set([
  'publish',
  'unpublish',
  'change_workflow_step',
  'new_version',
  'schedule_publish',
  'schedule_unpublish',
  'cancel_scheduled_publish',
  'cancel_scheduled_unpublish',
]);

/** The action of a create, update or delete of a content type or language. */
const modelActions: Readonly<Record<string, WebhookAction<'content_type' | 'language'>>> = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
};
const assetActions: Readonly<Record<string, WebhookAction<'asset'>>> = {
  create: 'created',
  update: 'metadata_changed',
  delete: 'deleted',
};

/**
 * The notifications a Lectern change event stands for, by object type, action and delivery slot
 * (only the object changed is notified, never its dependants). Events of objects a webhook
 * cannot subscribe to (snippets, collections, workflows, spaces, folders, projects) stand for none.
 */
export function notificationKinds(event: ChangeEvent): NotificationKind[] {
  const channelSlot = event.channel === 'management' ? null : slotOf[event.channel];
  switch (event.objectKind) {
    case 'variant':
      return variantKinds(event.operation, channelSlot);
    case 'item':
      // Item metadata (name, codename, collection) is shown in both slots.
      if (channelSlot === null) return [];
      return [{ objectType: 'content_item', action: 'metadata_changed', slot: channelSlot }];
    case 'asset': {
      // Assets are identical in both slots; Lectern writes one event per channel.
      const action = assetActions[event.operation];
      return channelSlot === null || action === undefined ? [] : [{ objectType: 'asset', action, slot: channelSlot }];
    }
    case 'content_type':
    case 'language': {
      // Model objects are the same in both slots.
      const objectType = event.objectKind;
      const action = modelActions[event.operation];
      return action === undefined ? [] : deliverySlots.map((slot) => ({ objectType, action, slot }));
    }
    case 'taxonomy':
      return taxonomyActionsOf(event).flatMap((action) =>
        deliverySlots.map((slot) => ({ objectType: 'taxonomy' as const, action, slot })),
      );
    default:
      // Open input: `objectKind` is any kind of change event, also of kinds no webhook notifies.
      return [];
  }
}

/**
 * A group created or deleted is one action; a change names its actions in the event
 * (`taxonomy_actions`, see core's taxonomy-changes.ts). An event written before that field
 * existed stands for `metadata_changed`, as it did then.
 */
function taxonomyActionsOf(event: ChangeEvent): TaxonomyAction[] {
  if (event.operation === 'create') return ['created'];
  if (event.operation === 'delete') return ['deleted'];
  if (event.operation !== 'update') return [];
  const listed = event.payload['taxonomy_actions'];
  if (!Array.isArray(listed)) return ['metadata_changed'];
  return listed.filter((a): a is TaxonomyAction => isOneOf(webhookActions.taxonomy, a));
}

function variantKinds(operation: string, slot: DeliverySlot | null): NotificationKind[] {
  if (slot === null) return [];
  const action = slot === 'published' ? publishedAction(operation) : previewAction(operation);
  return action === undefined ? [] : [{ objectType: 'content_item', action, slot }];
}

type ItemActions = Readonly<Record<string, WebhookAction<'content_item'>>>;
const publishedActions: ItemActions = { publish: 'published', unpublish: 'unpublished', delete: 'unpublished' };
const previewActions: ItemActions = { create: 'created', upsert: 'changed', delete: 'deleted' };

function publishedAction(operation: string): WebhookAction<'content_item'> | undefined {
  return publishedActions[operation];
}

function previewAction(operation: string): WebhookAction<'content_item'> | undefined {
  return stepMoves.has(operation) ? 'workflow_step_changed' : previewActions[operation];
}
