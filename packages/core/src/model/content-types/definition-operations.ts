import type { CoreDeps } from '../../deps.ts';
import type { ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { assertModelAccess, type ModelInput } from '../shared/index.ts';
import {
  createDefinition,
  deleteDefinition,
  modifyDefinition,
  requireDefinition,
  type DefinitionBody,
  type DefinitionKind,
} from './definitions.ts';

/**
 * The operations of one definition kind (content types, snippets), which differ only in `spec`
 * and, for deletes, in what still uses the object (`assertUnused` refuses the delete).
 */
export function definitionOperations<B extends DefinitionBody>(spec: DefinitionKind) {
  return {
    /** Every object of the kind in the project, in creation order. */
    list: async (deps: CoreDeps, input: ModelInput): Promise<ModelRecord<B>[]> => {
      assertModelAccess(input.actor, input.projectId);
      return deps.store.transaction((tx) => tx.model.list<B>(input.projectId, spec.kind));
    },
    get: async (deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<ModelRecord<B>> => {
      assertModelAccess(input.actor, input.projectId);
      return deps.store.transaction((tx) =>
        requireDefinition<B>(tx, { projectId: input.projectId, spec, key: input.key }),
      );
    },
    add: async (deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<ModelRecord<B>> =>
      (await createDefinition(deps, input, spec)) as ModelRecord<B>,
    modify: async (
      deps: CoreDeps,
      input: ModelInput & { key: RecordKey; operations: unknown },
    ): Promise<ModelRecord<B>> => (await modifyDefinition(deps, input, spec)) as ModelRecord<B>,
    delete: (
      deps: CoreDeps,
      input: ModelInput & { key: RecordKey },
      assertUnused: (tx: UnitOfWork, record: ModelRecord<DefinitionBody>) => Promise<void>,
    ): Promise<void> => deleteDefinition(deps, input, spec, assertUnused),
  };
}
