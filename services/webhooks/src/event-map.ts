import {
  deliverySlots,
  isOneOf,
  webhookActions,
  webhookActionsField,
  type ChangeEvent,
  type DeliverySlot,
  type WebhookAction,
  type WebhookEvent,
  type WebhookObjectType,
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

/**
 * The actions of a create, update or delete of an object of type `T`. An update may name its
 * actions in the event (`webhook_actions`, core's change-actions.ts: a language activated is
 * `created`, an asset's file replaced `changed`, a taxonomy's new term `term_created`, …); an
 * event written before that field existed stands for the update action given here, as it did.
 */
function actionsOf<T extends WebhookObjectType>(
  event: ChangeEvent,
  objectType: T,
  actions: { readonly create: WebhookAction<T>; readonly update: WebhookAction<T>; readonly delete: WebhookAction<T> },
): WebhookAction<T>[] {
  const allowed: readonly WebhookAction<T>[] = webhookActions[objectType];
  if (event.operation === 'create') return [actions.create];
  if (event.operation === 'delete') return [actions.delete];
  if (event.operation !== 'update') return [];
  const listed = event.payload[webhookActionsField];
  if (!Array.isArray(listed)) return [actions.update];
  return listed.filter((a): a is WebhookAction<T> => isOneOf(allowed, a));
}

/** Both slots: model objects and assets are the same in published and preview data. */
function inBothSlots(event: WebhookEvent): NotificationKind[] {
  return deliverySlots.map((slot) => ({ ...event, slot }));
}

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
    case 'item': {
      if (channelSlot === null) return [];
      const action = itemAction(event.operation, channelSlot);
      return action === undefined ? [] : [{ objectType: 'content_item', action, slot: channelSlot }];
    }
    case 'asset':
      // Assets are identical in both slots; Lectern writes one event per channel.
      if (channelSlot === null) return [];
      return actionsOf(event, 'asset', { create: 'created', update: 'metadata_changed', delete: 'deleted' }).map(
        (action) => ({ objectType: 'asset', action, slot: channelSlot }),
      );
    case 'content_type':
      return actionsOf(event, 'content_type', { create: 'created', update: 'changed', delete: 'deleted' }).flatMap(
        (action) => inBothSlots({ objectType: 'content_type', action }),
      );
    case 'language':
      return actionsOf(event, 'language', { create: 'created', update: 'changed', delete: 'deleted' }).flatMap(
        (action) => inBothSlots({ objectType: 'language', action }),
      );
    case 'taxonomy':
      return actionsOf(event, 'taxonomy', { create: 'created', update: 'metadata_changed', delete: 'deleted' }).flatMap(
        (action) => inBothSlots({ objectType: 'taxonomy', action }),
      );
    default:
      // Open input: `objectKind` is any kind of change event, also of kinds no webhook notifies.
      return [];
  }
}

function variantKinds(operation: string, slot: DeliverySlot | null): NotificationKind[] {
  if (slot === null) return [];
  const action = slot === 'published' ? publishedAction(operation) : previewAction(operation);
  return action === undefined ? [] : [{ objectType: 'content_item', action, slot }];
}

type ItemActions = Readonly<Record<string, WebhookAction<'content_item'>>>;

/**
 * Events of an item itself (no language). Creating one notifies nothing: the reference's `created`
 * is a variant's, sent when its first variant is written. Deleting it deletes its variants:
 * `deleted` in preview data, `unpublished` in published data (as a variant deleted). Any other
 * change is of its metadata (name, codename, collection), shown in both slots.
 */
function itemAction(operation: string, slot: DeliverySlot): WebhookAction<'content_item'> | undefined {
  if (operation === 'create') return undefined;
  if (operation === 'delete') return slot === 'published' ? 'unpublished' : 'deleted';
  return 'metadata_changed';
}
const publishedActions: ItemActions = { publish: 'published', unpublish: 'unpublished', delete: 'unpublished' };
const previewActions: ItemActions = { create: 'created', upsert: 'changed', delete: 'deleted' };

function publishedAction(operation: string): WebhookAction<'content_item'> | undefined {
  return publishedActions[operation];
}

function previewAction(operation: string): WebhookAction<'content_item'> | undefined {
  return stepMoves.has(operation) ? 'workflow_step_changed' : previewActions[operation];
}
