import type { ChangeEvent, ContentTypeBody, UnitOfWork } from '@lectern/core';

/**
 * The events a change event is notified as. A snippet change is a change of every content type
 * using the snippet (Kontent.ai's webhooks reference, "Content type events": `changed` on
 * "Changing a snippet used in the content type"), read when the event is materialised: each such
 * type stands as a content type update of its own. Every other event stands for itself.
 */
export async function notifiedEvents(tx: UnitOfWork, event: ChangeEvent): Promise<readonly ChangeEvent[]> {
  if (event.objectKind !== 'snippet' || event.operation !== 'update') return [event];
  const types = await tx.model.list<ContentTypeBody>(event.projectId, 'content_type');
  return types
    .filter((t) =>
      t.body.elements.some(
        (e) => e.type === 'snippet' && (e['snippet'] as { id?: unknown } | undefined)?.id === event.objectId,
      ),
    )
    .map((t) => ({ ...event, objectKind: 'content_type', objectId: t.id, payload: { codename: t.codename } }));
}
