import { LecternError } from '@lectern/errors';
import type { RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import { assertModelAccess, type ModelInput } from '../shared/index.ts';
import {
  createDefinition,
  deleteDefinition,
  modifyDefinition,
  requireDefinition,
  type DefinitionKind,
} from './definitions.ts';
import type { ContentTypeBody, ContentTypeRecord } from './model.ts';

const contentType: DefinitionKind = { kind: 'content_type', label: 'content type', notFound: 'CONTENT_TYPE_NOT_FOUND' };

/** Every content type of the project, in creation order. */
export async function listContentTypes(deps: CoreDeps, input: ModelInput): Promise<ContentTypeRecord[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => tx.model.list<ContentTypeBody>(input.projectId, 'content_type'));
}

export async function getContentType(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey },
): Promise<ContentTypeRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) =>
    requireDefinition<ContentTypeBody>(tx, { projectId: input.projectId, spec: contentType, key: input.key }),
  );
}

/** POST /types (reference §2.5): `{name, codename?, external_id?, content_groups?, elements}`. */
export async function addContentType(
  deps: CoreDeps,
  input: ModelInput & { body: unknown },
): Promise<ContentTypeRecord> {
  return (await createDefinition(deps, input, contentType)) as ContentTypeRecord;
}

/** PATCH /types/{…} with path-based operations (reference §6.1). */
export async function modifyContentType(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; operations: unknown },
): Promise<ContentTypeRecord> {
  return (await modifyDefinition(deps, input, contentType)) as ContentTypeRecord;
}

/** DELETE /types/{…}; refused while content items of the type exist. */
export async function deleteContentType(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  await deleteDefinition(deps, input, contentType, async (tx, record) => {
    const users = await tx.items.ofType(input.projectId, record.id, 4);
    if (users.count > 0) {
      const named = users.sample
        .slice(0, 3)
        .map((item) => `'${item.codename}'`)
        .join(', ');
      throw new LecternError('INVALID_REQUEST_BODY', {
        message: `Type '${record.codename}' is still used by ${users.count} content item(s) (${named}${users.count > 3 ? ', …' : ''}) and cannot be deleted. Delete those items first.`,
      });
    }
  });
}
