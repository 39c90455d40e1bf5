import { LecternError } from '@lectern/errors';
import type { RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { ModelInput } from '../shared/index.ts';
import { definitionOperations } from './definition-operations.ts';
import type { ContentTypeBody, SnippetBody } from './model.ts';

/*
 * Content type snippets: list (creation order), get, add (POST /snippets: `{name, codename?,
 * external_id?, elements}`; no snippet or URL slug elements), modify (PATCH, as types).
 */
const snippets = definitionOperations<SnippetBody>({
  kind: 'snippet',
  label: 'content type snippet',
  notFound: 'SNIPPET_NOT_FOUND',
});
export const { list: listSnippets, get: getSnippet, add: addSnippet, modify: modifySnippet } = snippets;

/** DELETE /snippets/{…}; refused while a content type uses the snippet. */
export async function deleteSnippet(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  await snippets.delete(deps, input, async (tx, record) => {
    // Type writers lock the rows of the snippets they use, so the row lock held here suffices.
    const types = await tx.model.list<ContentTypeBody>(input.projectId, 'content_type');
    const users = types.filter((t) =>
      t.body.elements.some(
        (e) => e.type === 'snippet' && (e['snippet'] as { id?: string } | undefined)?.id === record.id,
      ),
    );
    if (users.length > 0)
      throw new LecternError('INVALID_REQUEST_BODY', {
        message: `The content type snippet '${record.codename}' is still used by ${users.map((t) => `'${t.codename}'`).join(', ')} and cannot be deleted.`,
      });
  });
}
