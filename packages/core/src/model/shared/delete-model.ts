import type { CoreDeps } from '../../deps.ts';
import type { ModelKind, ModelRecord } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { assertMayChange, permissionOfKind, type ModelInput } from './access.ts';
import { commitModel } from './events.ts';

/**
 * Deletes one model document for `input.actor`: the kind's permission check, then one transaction
 * that finds the document with a row lock (`require`, which refuses a missing one), lets
 * `assertUnused` refuse while something still uses it, deletes it and appends its change event.
 */
export async function deleteModel<R extends ModelRecord<object>>(
  deps: CoreDeps,
  input: ModelInput,
  options: {
    kind: ModelKind;
    require: (tx: UnitOfWork) => Promise<R>;
    assertUnused?: (tx: UnitOfWork, record: R) => Promise<void>;
  },
): Promise<void> {
  assertMayChange(input.actor, input.projectId, permissionOfKind[options.kind]);
  await deps.store.transaction(async (tx) => {
    const current = await options.require(tx);
    await options.assertUnused?.(tx, current);
    await commitModel(tx, 'delete', current, deps.clock.now());
  });
}
