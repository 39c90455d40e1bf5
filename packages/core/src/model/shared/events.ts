import type { NewChangeEvent } from '../../domain/change-event.ts';
import type { ModelKind, ModelRecord } from '../../domain/model-record.ts';
import { generateCodename } from './codename.ts';
import type { UnitOfWork } from '../../ports/store.ts';

/**
 * The change event of a content model write. Model changes affect both delivery channels (types,
 * taxonomies and languages are served by both), so consumers treat `management`-channel model
 * events as relevant to published and preview content alike.
 */
export function modelEvent(
  operation: 'create' | 'update' | 'delete',
  record: ModelRecord<object>,
  extra: Readonly<Record<string, unknown>> = {},
): NewChangeEvent {
  return {
    objectKind: record.kind,
    operation,
    objectId: record.id,
    channel: 'management',
    payload: {
      codename: record.codename,
      ...(record.externalId === null ? {} : { external_id: record.externalId }),
      ...extra,
    },
  };
}

/**
 * Writes a model document (insert, update or delete) and appends its change event, in the
 * caller's transaction. `at` is the event time; by default the record's last_modified. `extra`
 * joins the event's payload.
 */
export async function commitModel(
  tx: UnitOfWork,
  operation: 'create' | 'update' | 'delete',
  record: ModelRecord<object>,
  at: Date = record.lastModified,
  extra: Readonly<Record<string, unknown>> = {},
): Promise<void> {
  if (operation === 'create') await tx.model.insert(record);
  else if (operation === 'update') await tx.model.update(record);
  else await tx.model.delete(record.projectId, record.kind, record.id);
  await tx.outbox.append(record.projectId, [modelEvent(operation, record, extra)], at);
}

/**
 * Creates a model document and its change event: with the codename given, or one generated from
 * `name` that no document of `siblings` uses; last modified now.
 */
export async function createModel<B extends object>(
  tx: UnitOfWork,
  fields: {
    projectId: string;
    kind: ModelKind;
    id: string;
    name: string;
    codename: string | undefined;
    externalId: string | null;
    body: B;
    siblings: readonly { readonly codename: string }[];
    now: Date;
  },
): Promise<ModelRecord<B>> {
  const { projectId, kind, id, name, externalId, body, siblings } = fields;
  const isTaken = (c: string) => siblings.some((s) => s.codename === c);
  const codename = fields.codename ?? generateCodename({ name, id, isTaken });
  const record: ModelRecord<B> = { projectId, kind, id, codename, externalId, body, lastModified: fields.now };
  await commitModel(tx, 'create', record);
  return record;
}
