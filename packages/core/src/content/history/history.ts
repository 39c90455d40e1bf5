import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import { isUuid } from '../../domain/uuid.ts';
import { systemStepIds } from '../../model/defaults.ts';
import { assertMayChange, keysetAfter, keysetPage, type Continuation, type Page } from '../../model/shared/index.ts';
import type { Store, UnitOfWork } from '../../ports/store.ts';
import { createNewVersion } from '../workflow/actions.ts';
import { isEditable } from '../workflow/workflow-state.ts';
import { elementsJsonV2 } from '../variants/element-json.ts';
import { loadExistingVariant, type VariantInput } from '../variants/load.ts';
import type { VariantRecord } from '../variants/variant-record.ts';
import { variantJson } from '../variants/variant-json.ts';
import { upsertVariant } from '../variants/variants.ts';
import type { VariantJson } from '../variants/variant-wire.ts';
import { elementsOf } from './rebuild.ts';
import type { StoredVersion, VariantRef } from './version-record.ts';
import { versionJson, type VersionJson } from './version-json.ts';

/** Versions are listed 50 a page, newest first. */
export const versionPageSize = 50;

export type VersionInput = VariantInput & { readonly versionId: string };

function refOf(v: VariantRecord): VariantRef {
  return { projectId: v.projectId, itemId: v.itemId, languageId: v.languageId };
}

async function findVersion(tx: UnitOfWork, ref: VariantRef, id: string): Promise<StoredVersion> {
  const version = isUuid(id) ? await tx.history.get(ref, id.toLowerCase()) : null;
  if (!version) throw new LecternError('VARIANT_VERSION_NOT_FOUND');
  return version;
}

/** One page of the variant's versions, newest first (Lectern extension; needs read access). */
export async function listVariantVersions(
  deps: CoreDeps,
  input: VariantInput & { continuation?: Continuation | undefined; pageSize?: number },
): Promise<Page<VersionJson>> {
  return deps.store.transaction(async (tx) => {
    const { variant } = await loadExistingVariant(tx, input, { isForUpdate: false });
    const ref = refOf(variant);
    const list = { name: 'variant-versions', scope: [ref.projectId, ref.itemId, ref.languageId], keyLength: 1 };
    const page = keysetPage(
      list,
      await tx.history.page(ref, {
        after: keysetAfter(list, input.continuation),
        limit: input.pageSize ?? versionPageSize,
      }),
    );
    return { items: page.items.map(versionJson), continuationToken: page.continuationToken };
  });
}

/** A version as the Management API answers a variant (v2), with the version's metadata under `version`. */
export async function getVariantVersion(
  deps: CoreDeps,
  input: VersionInput,
): Promise<VariantJson & { version: VersionJson }> {
  return deps.store.transaction(async (tx) => {
    const { variant, lookups } = await loadExistingVariant(tx, input, { isForUpdate: false });
    const ref = refOf(variant);
    const version = await findVersion(tx, ref, input.versionId);
    const record: VariantRecord = {
      ...variant,
      workflowId: version.workflowId,
      stepId: version.stepId,
      lastModified: new Date(version.meta.last_modified),
      elements: await elementsOf(tx, ref, version),
      schedule: version.meta.schedule,
      dueDate: version.meta.due_date,
      contributors: version.meta.contributors,
      note: version.meta.note,
      published: null,
    };
    const json = (await variantJson(record, { lookups, version: 'v2' })) as VariantJson;
    return { ...json, version: versionJson(version) };
  });
}

/** A store whose transactions run inside `tx`: core operations composed into one transaction. */
function within(tx: UnitOfWork, store: Store): Store {
  return { transaction: (work) => work(tx), ping: () => store.ping(), close: () => Promise.resolve() };
}

/**
 * Restores a version's element values as a new version, in one transaction: a published variant
 * first gets a new version (as "Create new version" does), then the values go through the
 * upsert — the same validation, permissions and events as a save; history is only added to.
 * Refused while the variant is scheduled or archived (VARIANT_NOT_EDITABLE).
 */
export async function restoreVariantVersion(
  deps: CoreDeps,
  input: VersionInput,
): Promise<{ variant: VariantJson; version: VersionJson }> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  return deps.store.transaction(async (tx) => {
    const inner: CoreDeps = { ...deps, store: within(tx, deps.store) };
    const loaded = await loadExistingVariant(tx, input, { isForUpdate: true });
    const ref = refOf(loaded.variant);
    const source = await findVersion(tx, ref, input.versionId);
    const elements = await elementsOf(tx, ref, source);
    if (loaded.variant.stepId === systemStepIds.published) await createNewVersion(inner, input);
    else if (!isEditable(loaded.variant))
      throw new LecternError('VARIANT_NOT_EDITABLE', {
        message: 'The language variant is scheduled or archived. Cancel the scheduling or move it to a step first.',
      });
    const body = { elements: await elementsJsonV2(loaded.type.elements, elements, loaded.lookups) };
    const saved = await upsertVariant(inner, { ...input, version: 'v2', body });
    const latest = await tx.history.latest(ref);
    if (!latest) throw new LecternError('INTERNAL', { message: 'The restore saved no version.' });
    await tx.history.markRestore(ref, latest.id, source.id);
    return {
      variant: saved.variant,
      version: versionJson({ ...latest, operation: 'restore', restoredFrom: source.id }),
    };
  });
}
