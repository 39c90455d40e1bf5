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
import type { ContentTypeBody, SnippetBody, SnippetRecord } from './model.ts';

const snippet: DefinitionKind = { kind: 'snippet', label: 'content type snippet', notFound: 'SNIPPET_NOT_FOUND' };

/** Every content type snippet of the project, in creation order. */
export async function listSnippets(deps: CoreDeps, input: ModelInput): Promise<SnippetRecord[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => tx.model.list<SnippetBody>(input.projectId, 'snippet'));
}

export async function getSnippet(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<SnippetRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) =>
    requireDefinition<SnippetBody>(tx, { projectId: input.projectId, spec: snippet, key: input.key }),
  );
}

/** POST /snippets: `{name, codename?, external_id?, elements}`; no snippet or URL slug elements. */
export async function addSnippet(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<SnippetRecord> {
  return (await createDefinition(deps, input, snippet)) as SnippetRecord;
}

export async function modifySnippet(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; operations: unknown },
): Promise<SnippetRecord> {
  return (await modifyDefinition(deps, input, snippet)) as SnippetRecord;
}

/** DELETE /snippets/{…}; refused while a content type uses the snippet. */
export async function deleteSnippet(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  await deleteDefinition(deps, input, snippet, async (tx, record) => {
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
