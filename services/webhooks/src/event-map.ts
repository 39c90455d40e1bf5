import type { ChangeEvent } from '@lectern/core';

/** What a current-format notification says happened (delivery-apis.md §4.1). */
export interface NotificationKind {
  readonly objectType: 'content_item' | 'content_type' | 'taxonomy' | 'asset' | 'language';
  readonly action: string;
  readonly slot: 'published' | 'preview';
}

const slotOf = { delivery_production: 'published', delivery_preview: 'preview' } as const;
const bothSlots = ['published', 'preview'] as const;

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

const modelActions: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  content_type: { create: 'created', update: 'changed', delete: 'deleted' },
  taxonomy: { create: 'created', update: 'metadata_changed', delete: 'deleted' },
  language: { create: 'created', update: 'changed', delete: 'deleted' },
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
      if (channelSlot === null) return [];
      const action = { create: 'created', update: 'metadata_changed', delete: 'deleted' }[event.operation];
      return action === undefined ? [] : [{ objectType: 'asset', action, slot: channelSlot }];
    }
    default: {
      const action = modelActions[event.objectKind]?.[event.operation];
      if (action === undefined) return [];
      const objectType = event.objectKind as NotificationKind['objectType'];
      return bothSlots.map((slot) => ({ objectType, action, slot }));
    }
  }
}

function variantKinds(operation: string, slot: 'published' | 'preview' | null): NotificationKind[] {
  if (slot === 'published') {
    const action = { publish: 'published', unpublish: 'unpublished', delete: 'unpublished' }[operation];
    return action === undefined ? [] : [{ objectType: 'content_item', action, slot }];
  }
  if (slot === 'preview') {
    const action = stepMoves.has(operation)
      ? 'workflow_step_changed'
      : { create: 'created', upsert: 'changed', delete: 'deleted' }[operation];
    return action === undefined ? [] : [{ objectType: 'content_item', action, slot }];
  }
  return [];
}
