import type { ChangeChannel, NewChangeEvent } from '../../domain/change-event.ts';
import type { ContentItemRecord } from './item-record.ts';

/** What a content change event names besides the item. */
export interface ContentEventDetails {
  readonly typeCodename: string;
  readonly language?: { readonly id: string; readonly codename: string };
  readonly workflow?: { readonly workflowId: string; readonly stepId: string };
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * Change events of one content change, one per channel it affects (DESIGN.md write path): variant
 * edits and workflow moves affect preview, publishing affects production and preview, item
 * metadata affects both.
 */
export function contentEvents(
  operation: string,
  channels: readonly ChangeChannel[],
  item: ContentItemRecord,
  details: ContentEventDetails,
): NewChangeEvent[] {
  const payload = {
    item_id: item.id,
    item_codename: item.codename,
    ...(item.externalId === null ? {} : { item_external_id: item.externalId }),
    type_id: item.typeId,
    type_codename: details.typeCodename,
    collection_id: item.collectionId,
    ...(details.language ? { language_id: details.language.id, language_codename: details.language.codename } : {}),
    ...(details.workflow ? { workflow_id: details.workflow.workflowId, step_id: details.workflow.stepId } : {}),
    ...details.extra,
  };
  return channels.map((channel) => ({
    objectKind: details.language ? 'variant' : 'item',
    operation,
    objectId: item.id,
    channel,
    payload,
  }));
}
