import type { UnitOfWork } from '../ports/store.ts';

/**
 * Appends the management event of a project's creation or change, in the writing transaction:
 * `payload` holds the project's name on creation, the changed fields on update.
 */
export async function appendProjectEvent(
  tx: UnitOfWork,
  event: { projectId: string; operation: 'create' | 'update'; payload: Record<string, unknown>; at: Date },
): Promise<void> {
  await tx.outbox.append(
    event.projectId,
    [
      {
        objectKind: 'project',
        operation: event.operation,
        objectId: event.projectId,
        channel: 'management',
        payload: event.payload,
      },
    ],
    event.at,
  );
}
