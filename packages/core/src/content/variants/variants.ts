import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import type { RecordKey } from '../../domain/model-record.ts';
import type { Actor } from '../../domain/actor.ts';
import { zeroId } from '../../model/defaults.ts';
import {
  assertModelAccess,
  describeReference,
  isRecord,
  keysetAfter,
  keysetPage,
  type Continuation,
  type ModelInput,
  type Page,
} from '../../model/shared/index.ts';
import { changedElementIds, recordVersion } from '../history/record-version.ts';
import { contentEvents } from '../items/events.ts';
import { assertPersonWorkflowAction } from '../workflow/person-workflow-rules.ts';
import { readVariantMeta, readWorkflowTarget } from '../workflow/targets.ts';
import { firstStepOf, isEditable, workflowFor } from '../workflow/workflow-state.ts';
import { readElements } from './elements-reader.ts';
import { loadExistingVariant, loadVariant, requireItem, type VariantInput } from './load.ts';
import { ContentLookups } from './lookups.ts';
import { defaultValues, idsIn, mergeElements, verifyReferences } from './merge.ts';
import { CountingProblems, type ValueContext } from './value-context.ts';
import { noSchedule, type VariantRecord } from './variant-record.ts';
import { variantJson, variantsJson } from './variant-json.ts';
import { assertIfMatch, variantEtag } from './variant-etag.ts';
import type { AnyVariantJson, VariantJson } from './variant-wire.ts';

export type { VariantInput } from './load.ts';

/**
 * The contributors after a save by `actor`: a signed-in person who saves becomes one (as in the
 * Kontent.ai app); keys and the operator leave them as they are (the API sets them explicitly).
 */
function withPerson(contributors: readonly { id: string }[], actor: Actor): readonly { id: string }[] {
  if (actor.type !== 'person' || contributors.some((c) => c.id === actor.userId)) return contributors;
  return [...contributors, { id: actor.userId }];
}

/**
 * Upserts a variant (reference §2.3): a partial merge of the elements sent on top of the stored
 * ones. Creates the variant when absent (never the item). Refused while the variant is Published,
 * Scheduled or Archived. v2 bodies may also move the variant in workflow and set due date,
 * contributors and note; v1 bodies carry only `elements` (keyed by codename).
 */
export async function upsertVariant(
  deps: CoreDeps,
  input: VariantInput & { version?: 'v2'; body: unknown; ifMatch?: string },
): Promise<{ variant: VariantJson; isCreated: boolean; etag: string }>;
export async function upsertVariant(
  deps: CoreDeps,
  input: VariantInput & { body: unknown; ifMatch?: string },
): Promise<{ variant: AnyVariantJson; isCreated: boolean; etag: string }>;
export async function upsertVariant(
  deps: CoreDeps,
  input: VariantInput & { body: unknown; ifMatch?: string },
): Promise<{ variant: AnyVariantJson; isCreated: boolean; etag: string }> {
  const version = input.version ?? 'v2';
  return deps.store.transaction(async (tx) => {
    const { lookups, item, language, type, variant, latestVersion } = await loadVariant(tx, input, {
      isForUpdate: true,
    });
    // Optimistic concurrency (opt-in, `If-Match`): checked under the item's row lock.
    assertIfMatch(variant, input.ifMatch);
    if (variant && !isEditable(variant)) throw new LecternError('VARIANT_NOT_EDITABLE');
    const problems = new CountingProblems();
    if (!variant && !language.body.is_active)
      problems.add(
        undefined,
        `The language '${language.codename}' is not active. Activate it before adding content in it.`,
      );
    const body = isRecord(input.body) ? input.body : {};
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    else if (body['elements'] === undefined || body['elements'] === null)
      problems.add('elements', "The 'elements' property is missing. Provide at least an empty array.");
    if (version === 'v1')
      for (const key of ['workflow', 'workflow_step', 'due_date', 'contributors', 'note'])
        if (body[key] !== undefined && body[key] !== null)
          problems.add(key, `'${key}' is available in Management API v2 only.`);
    const ctx: ValueContext = {
      lookups,
      problems,
      version,
      depth: 0,
      itemChecks: [],
      assetChecks: [],
      storedIds: idsIn(variant?.elements),
    };
    const updates =
      body['elements'] === undefined || body['elements'] === null
        ? null
        : await readElements({ defs: type.elements, raw: body['elements'], path: 'elements', ctx });
    await verifyReferences(ctx);
    const target =
      version === 'v2' && body['workflow'] !== undefined && body['workflow'] !== null
        ? await readWorkflowTarget({
            lookups,
            raw: body['workflow'],
            path: 'workflow',
            problems,
            item,
            isScopeChecked: false,
          })
        : null;
    const meta = version === 'v2' ? await readVariantMeta(lookups, body, problems) : {};
    problems.throwIfAny();
    const now = deps.clock.now();
    let workflowId = variant?.workflowId;
    let stepId = variant?.stepId;
    if (!workflowId || !stepId) {
      const workflow = workflowFor(await lookups.workflows(), item);
      workflowId = workflow?.id ?? zeroId;
      stepId = workflow ? firstStepOf(workflow) : '';
    }
    if (target && (target.workflowId !== workflowId || target.stepId !== stepId))
      await assertPersonWorkflowAction(tx, {
        actor: input.actor,
        variant: { projectId: input.projectId, workflowId, stepId },
        workflows: await lookups.workflows(),
        action: { kind: 'move', ...target },
      });
    // Values of non-localizable elements belong to the default language; other languages ignore them.
    const localized = new Map(
      [...(updates ?? new Map())].filter(
        ([id]) => language.id === zeroId || type.elements.find((d) => d.id === id)?.['is_non_localizable'] !== true,
      ),
    );
    const next: VariantRecord = {
      projectId: input.projectId,
      itemId: item.id,
      languageId: language.id,
      typeId: item.typeId,
      workflowId: target?.workflowId ?? workflowId,
      stepId: target?.stepId ?? stepId,
      lastModified: now,
      elements: mergeElements(type.elements, variant?.elements ?? defaultValues(type.elements), localized),
      schedule: variant?.schedule ?? noSchedule,
      dueDate: meta.dueDate !== undefined ? meta.dueDate : (variant?.dueDate ?? null),
      contributors: meta.contributors ?? withPerson(variant?.contributors ?? [], input.actor),
      note: meta.note !== undefined ? meta.note : (variant?.note ?? null),
      published: variant?.published ?? null,
    };
    await tx.variants.save(next);
    // Computed once for both the version history and the audit entry.
    const changed = changedElementIds(variant?.elements ?? null, next.elements);
    await recordVersion(tx, {
      actor: input.actor,
      before: variant,
      after: next,
      operation: variant ? 'upsert' : 'create',
      at: now,
      changed,
      latest: latestVersion,
    });
    // The audit entry names the elements this save changed (ids of those sent and written with
    // another value than before; at most 50).
    const isChanged = new Set(changed);
    tx.audit.describe({ changed_elements: [...localized.keys()].filter((id) => isChanged.has(id)).slice(0, 50) });
    // Who saved this version, for the editor's conflict view (a person's saves only).
    if (input.actor.type === 'person')
      await tx.presence.recordSave({ ...variantIdsOf(next), userId: input.actor.userId, at: now });
    const answer = await variantJson(next, { lookups, version });
    // Appended at commit: the project's event counter lock (events.md) is taken by the
    // transaction's last statement, which also writes its audit entry (issue 35).
    const events = contentEvents(variant ? 'upsert' : 'create', ['delivery_preview'], item, {
      typeCodename: type.record.codename,
      language: { id: language.id, codename: language.codename },
      workflow: { workflowId: next.workflowId, stepId: next.stepId },
    });
    tx.outbox.appendAtCommit(input.projectId, events, now);
    return { variant: answer, isCreated: variant === null, etag: variantEtag(next) };
  });
}

const variantIdsOf = (v: VariantRecord) => ({ projectId: v.projectId, itemId: v.itemId, languageId: v.languageId });

/** One variant: its latest version, or with `isPublished` its published one (404 code 122 when none). */
export async function getVariant(
  deps: CoreDeps,
  input: VariantInput & { version?: 'v2'; isPublished?: boolean },
): Promise<VariantJson>;
export async function getVariant(
  deps: CoreDeps,
  input: VariantInput & { isPublished?: boolean },
): Promise<AnyVariantJson>;
export async function getVariant(
  deps: CoreDeps,
  input: VariantInput & { isPublished?: boolean },
): Promise<AnyVariantJson> {
  return deps.store.transaction(async (tx) => {
    const { lookups, variant } = await loadExistingVariant(tx, input, { isForUpdate: false });
    if (input.isPublished && !variant.published) throw new LecternError('VARIANT_NOT_PUBLISHED');
    return variantJson(variant, { lookups, version: input.version ?? 'v2', isPublished: input.isPublished ?? false });
  });
}

/** Deletes one variant; its scheduled jobs go with it. */
export async function deleteVariant(deps: CoreDeps, input: VariantInput): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const { item, language, type, variant } = await loadExistingVariant(tx, input, { isForUpdate: true });
    await tx.scheduledJobs.cancel({ projectId: input.projectId, itemId: item.id, languageId: language.id });
    await tx.variants.delete(input.projectId, item.id, language.id);
    const channels = variant.published
      ? (['delivery_production', 'delivery_preview'] as const)
      : (['delivery_preview'] as const);
    const events = contentEvents('delete', channels, item, {
      typeCodename: type.record.codename,
      language: { id: language.id, codename: language.codename },
    });
    await tx.outbox.append(input.projectId, events, deps.clock.now());
  });
}

/** Every variant of an item (a bare array in the API). */
export async function listVariantsOfItem(
  deps: CoreDeps,
  input: ModelInput & { itemKey: RecordKey; version?: 'v2' },
): Promise<VariantJson[]>;
export async function listVariantsOfItem(
  deps: CoreDeps,
  input: ModelInput & { itemKey: RecordKey; version?: 'v1' | 'v2' },
): Promise<AnyVariantJson[]>;
export async function listVariantsOfItem(
  deps: CoreDeps,
  input: ModelInput & { itemKey: RecordKey; version?: 'v1' | 'v2' },
): Promise<AnyVariantJson[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const item = await requireItem(tx, input.projectId, input.itemKey);
    const lookups = new ContentLookups(tx, input.projectId);
    const variants = await tx.variants.listByItem(input.projectId, item.id);
    return variantsJson(variants, { lookups, version: input.version ?? 'v2' });
  });
}

/** Variant lists are 50 a page (reference §2.3). */
export const variantPageSize = 50;

/**
 * One page of the variants of a type, a collection or a space (reference §2.3), in creation order
 * (a space: those of its first collection, then of the second, …), read by key from the store. The
 * container must exist.
 */
export async function listVariantsBy(
  deps: CoreDeps,
  input: ModelInput & {
    /** `components`: variants of any type holding components of the content type. */
    by: 'content_type' | 'collection' | 'space' | 'components';
    key: RecordKey;
    continuation?: Continuation | undefined;
    pageSize?: number;
  },
): Promise<Page<VariantJson>> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const kind = input.by === 'components' ? 'content_type' : input.by;
    const container = await tx.model.find<{ collections?: { id: string }[] }>(input.projectId, kind, input.key);
    if (!container) {
      const code =
        kind === 'content_type'
          ? 'CONTENT_TYPE_NOT_FOUND'
          : input.by === 'collection'
            ? 'COLLECTION_NOT_FOUND'
            : 'SPACE_NOT_FOUND';
      throw new LecternError(code, {
        message: `The ${kind.replace('_', ' ')} with ${describeReference(input.key)} was not found.`,
      });
    }
    const list = {
      name: `variants-by-${input.by}`,
      scope: [input.projectId, container.id],
      keyLength: input.by === 'content_type' || input.by === 'components' ? 1 : 2,
    };
    const request = { after: keysetAfter(list, input.continuation), limit: input.pageSize ?? variantPageSize };
    const collectionIds = input.by === 'space' ? (container.body.collections ?? []).map((c) => c.id) : [container.id];
    const page = keysetPage(
      list,
      input.by === 'content_type'
        ? await tx.variants.pageByType(input.projectId, container.id, request)
        : input.by === 'components'
          ? await tx.variants.pageWithComponentsOfType(input.projectId, container.id, request)
          : await tx.variants.pageByCollections(input.projectId, collectionIds, request),
    );
    const lookups = new ContentLookups(tx, input.projectId);
    return {
      items: await variantsJson(page.items, { lookups, version: 'v2' }),
      continuationToken: page.continuationToken,
    };
  });
}
