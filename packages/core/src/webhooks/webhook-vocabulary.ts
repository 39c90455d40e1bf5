import type { ModelKind } from '../domain/model-record.ts';

/*
 * The closed vocabularies of webhooks, spelled once: the management validation of webhook bodies
 * (webhook-triggers.ts), the producer that turns change events into notifications
 * (services/webhooks event-map.ts) and the consumer that matches them against triggers
 * (trigger-match.ts) all derive their types from these arrays, so adding an object type, an
 * action or a filter makes the compiler name every place to change.
 */

/** The object types a `/webhooks-vnext` webhook may subscribe to (delivery-apis.md §4.1). */
export const webhookObjectTypes = ['content_item', 'content_type', 'taxonomy', 'asset', 'language'] as const;
export type WebhookObjectType = (typeof webhookObjectTypes)[number];

/**
 * The actions of each object type, in the order of Kontent.ai's webhooks reference ("Webhook
 * triggers and events" of Learn's webhooks page; SDK-JS webhook-contracts).
 */
export const webhookActions = {
  content_item: [
    'published',
    'unpublished',
    'created',
    'changed',
    'metadata_changed',
    'deleted',
    'workflow_step_changed',
  ],
  content_type: ['created', 'changed', 'deleted'],
  taxonomy: ['created', 'metadata_changed', 'deleted', 'term_created', 'term_changed', 'term_deleted', 'terms_moved'],
  asset: ['created', 'changed', 'metadata_changed', 'deleted'],
  language: ['created', 'changed', 'deleted'],
} as const satisfies { readonly [T in WebhookObjectType]: readonly string[] };

/** An action of object type `T` (of any object type when `T` is left out). */
export type WebhookAction<T extends WebhookObjectType = WebhookObjectType> = (typeof webhookActions)[T][number];

/** The actions a taxonomy group's change may stand for (one change may stand for several). */
export type TaxonomyAction = WebhookAction<'taxonomy'>;

/** An object type with one of its own actions: what a notification says happened. */
export type WebhookEvent = {
  readonly [T in WebhookObjectType]: { readonly objectType: T; readonly action: WebhookAction<T> };
}[WebhookObjectType];

/** `delivery_triggers.slot` and a notification's `message.delivery_slot`. */
export const deliverySlots = ['published', 'preview'] as const;
export type DeliverySlot = (typeof deliverySlots)[number];

/** `delivery_triggers.events`. */
export const webhookEventModes = ['all', 'specific'] as const;
export type WebhookEventMode = (typeof webhookEventModes)[number];

/** The filter lists of each object type's section and the model kind their references name. */
export const webhookFilters = {
  content_item: { collections: 'collection', content_types: 'content_type', languages: 'language' },
  content_type: { content_types: 'content_type' },
  taxonomy: { taxonomies: 'taxonomy' },
  asset: {},
  language: { languages: 'language' },
} as const satisfies { readonly [T in WebhookObjectType]: Readonly<Record<string, ModelKind>> };

/** A filter list of object type `T`'s section. */
export type WebhookFilter<T extends WebhookObjectType> = keyof (typeof webhookFilters)[T];

/** Whether `value` is one of `list` (narrows an unknown string from a request or the store). */
export function isOneOf<const L extends readonly string[]>(list: L, value: unknown): value is L[number] {
  return typeof value === 'string' && list.includes(value);
}

/*
 * The legacy `/webhooks` format (management-api.md §2.11, SDK-JS before bf4f59e): trigger lists,
 * the object types each list may name, and the operations each may list (the workflow list names
 * steps instead).
 */
export const legacyTriggerLists = [
  'delivery_api_content_changes',
  'preview_delivery_api_content_changes',
  'management_api_content_changes',
  'workflow_step_changes',
] as const;
export type LegacyTriggerList = (typeof legacyTriggerLists)[number];

export const legacyObjectTypes = ['content_item_variant', 'taxonomy'] as const;
export type LegacyObjectType = (typeof legacyObjectTypes)[number];

export const legacyListRules = {
  delivery_api_content_changes: {
    types: ['content_item_variant', 'taxonomy'],
    operations: ['publish', 'unpublish', 'archive', 'restore', 'upsert'],
  },
  preview_delivery_api_content_changes: {
    types: ['content_item_variant', 'taxonomy'],
    operations: ['archive', 'upsert', 'restore'],
  },
  management_api_content_changes: { types: ['content_item_variant'], operations: ['archive', 'create', 'restore'] },
  workflow_step_changes: { types: ['content_item_variant'], operations: ['change_workflow_step'] },
} as const satisfies {
  readonly [L in LegacyTriggerList]: {
    readonly types: readonly LegacyObjectType[];
    readonly operations: readonly string[];
  };
};

/** An operation a legacy notification of list `L` may carry in `message.operation`. */
export type LegacyOperation<L extends LegacyTriggerList = LegacyTriggerList> =
  (typeof legacyListRules)[L]['operations'][number];

/** The `message.api_name` of a legacy notification. */
export const legacyApiNames = ['delivery_production', 'delivery_preview', 'content_management'] as const;
export type LegacyApiName = (typeof legacyApiNames)[number];
