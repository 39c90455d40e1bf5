import { LecternError } from '@lectern/errors';
import type { Actor } from '../../domain/actor.ts';
import type { ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { StoredVersion, VersionInterface } from '../history/version-record.ts';
import type { LanguageBody } from '../../model/languages.ts';
import { assertMayChange, assertModelAccess, describeReference, type ModelInput } from '../../model/shared/index.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { ContentItemRecord } from '../items/item-record.ts';
import { ContentLookups, type TypeShape } from './lookups.ts';
import type { VariantRecord } from './variant-record.ts';

/** What names one variant: the item and the language, each by id, codename or external id. */
export interface VariantInput extends ModelInput {
  readonly itemKey: RecordKey;
  readonly languageKey: RecordKey;
  readonly version?: 'v1' | 'v2';
}

export interface LoadedVariant {
  readonly lookups: ContentLookups;
  readonly item: ContentItemRecord;
  readonly language: ModelRecord<LanguageBody>;
  readonly type: TypeShape;
  readonly variant: VariantRecord | null;
  /**
   * A load for update: the variant's latest version (null: none), read with it under the item's
   * lock, for `recordVersion`; undefined when not read.
   */
  readonly latestVersion?: StoredVersion | null | undefined;
  /** Who loaded it (for the version history of a save that follows). */
  readonly actor: Actor;
  /** The interface a save is recorded under when the actor does not tell it (a background task). */
  readonly via?: VersionInterface;
}

export async function requireItem(
  tx: UnitOfWork,
  projectId: string,
  key: RecordKey,
  isForUpdate = false,
): Promise<ContentItemRecord> {
  const item = await tx.items.find(projectId, key, { isForUpdate });
  if (!item)
    throw new LecternError('ITEM_NOT_FOUND', {
      message: `The requested content item with ${describeReference(key)} was not found.`,
    });
  return item;
}

/**
 * Loads the item (row locked when `isForUpdate`: every write to an item's variants serializes on
 * it, so concurrent partial updates apply one after the other), the language, the item's type
 * and the variant (null when absent). A load for update starts a content write: it needs the
 * manage content permission.
 */
export async function loadVariant(
  tx: UnitOfWork,
  input: VariantInput,
  options: { isForUpdate: boolean },
): Promise<LoadedVariant> {
  if (options.isForUpdate) assertMayChange(input.actor, input.projectId, 'manage_content');
  else assertModelAccess(input.actor, input.projectId);
  // A write locks the item and learns the model version in one statement; with the version, the
  // language and the type come from the store's memo while the model is unchanged (issue 35).
  const forWrite = options.isForUpdate ? await tx.items.findForWrite(input.projectId, input.itemKey) : null;
  const item = forWrite?.item ?? (await requireItem(tx, input.projectId, input.itemKey, options.isForUpdate));
  const lookups = new ContentLookups(tx, input.projectId, forWrite?.modelVersion ?? null);
  const language = await lookups.language(input.languageKey);
  if (!language)
    throw new LecternError('LANGUAGE_NOT_FOUND', {
      message: `The language with ${describeReference(input.languageKey)} was not found.`,
    });
  const type = await lookups.type({ id: item.typeId });
  if (!type) throw new LecternError('CONTENT_TYPE_NOT_FOUND', { message: `The item's content type was not found.` });
  if (options.isForUpdate) {
    const found = await tx.variants.findForWrite(input.projectId, item.id, language.id);
    return { lookups, item, language, type, ...found, actor: input.actor };
  }
  const variant = await tx.variants.find(input.projectId, item.id, language.id, options);
  return { lookups, item, language, type, variant, actor: input.actor };
}

/** Like `loadVariant`, but the variant must exist (VARIANT_NOT_FOUND, error_code 103). */
export async function loadExistingVariant(
  tx: UnitOfWork,
  input: VariantInput,
  options: { isForUpdate: boolean },
): Promise<LoadedVariant & { variant: VariantRecord }> {
  const loaded = await loadVariant(tx, input, options);
  if (!loaded.variant) throw new LecternError('VARIANT_NOT_FOUND');
  return loaded as LoadedVariant & { variant: VariantRecord };
}
