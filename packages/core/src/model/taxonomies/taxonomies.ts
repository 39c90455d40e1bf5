import { LecternError } from '@lectern/errors';
import type { RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { isAbsent, readExternalId, readName, requireModel } from '../collections/model-fields.ts';
import {
  deleteModel,
  assertModelAccess,
  checkCodename,
  idFromExternalId,
  isRecord,
  commitModel,
  Problems,
  type ModelInput,
  writeModel,
  createModel,
} from '../shared/index.ts';
import { taxonomyActions, webhookActionsField } from '../../webhooks/change-actions.ts';
import { applyTaxonomyOperations } from './taxonomy-patch.ts';
import {
  allTerms,
  checkTerms,
  fillCodenames,
  parseTerms,
  taxonomyNameMax,
  type TaxonomyBody,
  type TaxonomyRecord,
} from './taxonomy-terms.ts';

/*
 * Taxonomy groups (reference §2.6, §6.2): one model document per group holding its whole term
 * tree. Term codenames are unique within the group; term ids are unique in the project (a term
 * created with an external id gets the id derived from it, kind `taxonomy_term`). Every write
 * holds the kind lock, so concurrent PATCHes of one group apply one after the other and term id
 * checks across groups see a stable set.
 */

export async function listTaxonomies(deps: CoreDeps, input: ModelInput): Promise<TaxonomyRecord[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => tx.model.list<TaxonomyBody>(input.projectId, 'taxonomy'));
}

function requireTaxonomy(tx: UnitOfWork, projectId: string, key: RecordKey, isForUpdate = false) {
  return requireModel<TaxonomyBody>(tx, {
    projectId,
    kind: 'taxonomy',
    key,
    notFound: 'TAXONOMY_NOT_FOUND',
    noun: 'taxonomy group',
    isForUpdate,
  });
}

export async function getTaxonomy(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<TaxonomyRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => requireTaxonomy(tx, input.projectId, input.key));
}

/** Ids of the terms of every other group, which a group's terms must not reuse. */
function foreignTermIds(all: readonly TaxonomyRecord[], exceptId: string): Set<string> {
  return new Set(all.filter((t) => t.id !== exceptId).flatMap((t) => allTerms(t.body.terms).map((term) => term.id)));
}

export async function addTaxonomy(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<TaxonomyRecord> {
  const body = isRecord(input.body) ? input.body : {};
  return writeModel(deps, input, 'taxonomy', async (tx) => {
    const problems = new Problems();
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    const name = readName(body['name'], 'name', problems, taxonomyNameMax);
    const codename = isAbsent(body['codename'])
      ? undefined
      : checkCodename(body['codename'], 'codename', problems)
        ? body['codename']
        : null;
    const externalId = readExternalId(body['external_id'], 'external_id', problems);
    const ctx = { projectId: input.projectId, newId: () => deps.ids.uuid() };
    const terms = parseTerms(body['terms'], 'terms', problems, ctx);
    problems.throwIfAny();
    const all = await tx.model.list<TaxonomyBody>(input.projectId, 'taxonomy');
    const id =
      externalId === undefined || externalId === null
        ? deps.ids.uuid()
        : idFromExternalId({ projectId: input.projectId, kind: 'taxonomy', externalId });
    fillCodenames(terms);
    checkTerms({
      terms,
      foreignIds: foreignTermIds(all, id),
      problems,
      report: (message, path) => problems.add(path, message),
    });
    if (typeof codename === 'string' && all.some((t) => t.codename === codename))
      problems.add('codename', `The codename '${codename}' is already used by another taxonomy group.`);
    if (typeof externalId === 'string' && all.some((t) => t.externalId === externalId || t.id === id))
      problems.add('external_id', `The external id '${externalId}' is already used by another taxonomy group.`);
    problems.throwIfAny();
    return createModel(tx, {
      projectId: input.projectId,
      kind: 'taxonomy',
      id,
      name: name as string,
      codename: codename ?? undefined,
      externalId: externalId ?? null,
      body: { name: name as string, terms },
      siblings: all,
      now: deps.clock.now(),
    });
  });
}

/** PATCH a taxonomy group (reference §6.2). All operations apply or none. */
export async function modifyTaxonomy(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; operations: unknown },
): Promise<TaxonomyRecord> {
  return writeModel(deps, input, 'taxonomy', async (tx) => {
    const current = await requireTaxonomy(tx, input.projectId, input.key, true);
    const all = await tx.model.list<TaxonomyBody>(input.projectId, 'taxonomy');
    const { draft, problems } = applyTaxonomyOperations({
      draft: { name: current.body.name, codename: current.codename, terms: structuredClone(current.body.terms) },
      operations: input.operations,
      ctx: { projectId: input.projectId, newId: () => deps.ids.uuid() },
      foreignTermIds: foreignTermIds(all, current.id),
    });
    if (all.some((t) => t.id !== current.id && t.codename === draft.codename))
      problems.push({
        path: 'codename',
        message: `The codename '${draft.codename}' is already used by another taxonomy group.`,
      });
    if (problems.length > 0) throw new LecternError('INVALID_REQUEST_BODY', { problems });
    const next: TaxonomyRecord = {
      ...current,
      codename: draft.codename,
      body: { name: draft.name, terms: draft.terms },
      lastModified: deps.clock.now(),
    };
    // The event names the webhook actions the change stands for (term_created, terms_moved, …).
    const actions = taxonomyActions({ ...current.body, codename: current.codename }, draft);
    await commitModel(tx, 'update', next, next.lastModified, { [webhookActionsField]: actions });
    return next;
  });
}

/** Deletes a group. Content keeps its (now dangling) term references, as in Kontent.ai. */
export async function deleteTaxonomy(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  await deleteModel(deps, input, {
    kind: 'taxonomy',
    require: (tx) => requireTaxonomy(tx, input.projectId, input.key, true),
  });
}
