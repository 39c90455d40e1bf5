import type { NewChangeEvent } from '../../domain/change-event.ts';
import type { ModelRecord } from '../../domain/model-record.ts';

/**
 * The change event of a content model write. Model changes affect both delivery channels (types,
 * taxonomies and languages are served by both), so consumers treat `management`-channel model
 * events as relevant to published and preview content alike.
 */
export function modelEvent(operation: 'create' | 'update' | 'delete', record: ModelRecord<object>): NewChangeEvent {
  return {
    objectKind: record.kind,
    operation,
    objectId: record.id,
    channel: 'management',
    payload: { codename: record.codename, ...(record.externalId === null ? {} : { external_id: record.externalId }) },
  };
}
