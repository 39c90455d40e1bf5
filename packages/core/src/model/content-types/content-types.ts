import { LecternError } from '@lectern/errors';
import type { RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { ModelInput } from '../shared/index.ts';
import { definitionOperations } from './definition-operations.ts';
import type { ContentTypeBody } from './model.ts';

/*
 * Content types: list (creation order), get, add (POST /types, reference §2.5: `{name, codename?,
 * external_id?, content_groups?, elements}`), modify (PATCH with path-based operations, §6.1).
 */
const contentTypes = definitionOperations<ContentTypeBody>({
  kind: 'content_type',
  label: 'content type',
  notFound: 'CONTENT_TYPE_NOT_FOUND',
});
export const {
  list: listContentTypes,
  get: getContentType,
  add: addContentType,
  modify: modifyContentType,
} = contentTypes;

/** DELETE /types/{…}; refused while content items of the type exist. */
export async function deleteContentType(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  await contentTypes.delete(deps, input, async (tx, record) => {
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
