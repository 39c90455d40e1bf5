import type { ElementBody } from '../../model/content-types/model.ts';
import { systemStepIds, zeroId } from '../../model/defaults.ts';
import { elementsJsonV1, elementsJsonV2 } from './element-json.ts';
import type { ContentLookups } from './lookups.ts';
import type { StoredComponent, StoredElements, VariantRecord } from './variant-record.ts';
import type { AnyVariantJson, VariantJson, VariantJsonV1 } from './variant-wire.ts';

/**
 * Non-localizable elements hold one value for all languages: the default language's (of the same
 * version: published or latest). Other languages show it.
 */
async function withSharedValues(
  v: VariantRecord,
  defs: readonly ElementBody[],
  elements: StoredElements,
  options: { lookups: ContentLookups; isPublished?: boolean },
): Promise<StoredElements> {
  const shared = defs.filter((d) => d['is_non_localizable'] === true);
  if (v.languageId === zeroId || shared.length === 0) return elements;
  const base = await options.lookups.defaultVariant(v.itemId);
  const source = (options.isPublished ? base?.published?.elements : base?.elements) ?? {};
  const out = { ...elements };
  for (const def of shared) {
    const value = source[def.id];
    if (value) out[def.id] = value;
    else delete out[def.id];
  }
  return out;
}

/**
 * The Management API form of a variant (reference §2.3; v1: §7.1). `isPublished` renders the
 * published version (GET …/published) instead of the latest one.
 */
export async function variantJson(
  v: VariantRecord,
  options: { lookups: ContentLookups; version: 'v1' | 'v2'; isPublished?: boolean },
): Promise<AnyVariantJson> {
  const type = await options.lookups.type({ id: v.typeId });
  const defs = type?.elements ?? [];
  const published = options.isPublished ? v.published : null;
  const elements = await withSharedValues(v, defs, published?.elements ?? v.elements, options);
  const lastModified = published ? published.lastModified : v.lastModified.toISOString();
  if (options.version === 'v1') {
    const v1: VariantJsonV1 = {
      elements: elementsJsonV1(defs, elements),
      item: { id: v.itemId },
      language: { id: v.languageId },
      last_modified: lastModified,
    };
    return v1;
  }
  const workflowId = published?.workflowId ?? v.workflowId;
  const stepId = published ? systemStepIds.published : v.stepId;
  const v2: VariantJson = {
    elements: await elementsJsonV2(defs, elements, options.lookups),
    workflow: { workflow_identifier: { id: workflowId }, step_identifier: { id: stepId } },
    workflow_step: { id: stepId },
    item: { id: v.itemId },
    language: { id: v.languageId },
    last_modified: lastModified,
    schedule: { ...v.schedule },
    due_date: { value: v.dueDate },
    contributors: v.contributors.map((c) => ({ id: c.id })),
    note: v.note,
  };
  return v2;
}

/** Ids of the types of the rich text components in `elements`, nested ones too. */
function componentTypeIds(elements: StoredElements, out: Set<string>): Set<string> {
  const visit = (components: readonly StoredComponent[] | undefined) => {
    for (const c of components ?? []) {
      out.add(c.type.id);
      for (const value of Object.values(c.elements)) visit(value.components);
    }
  };
  for (const value of Object.values(elements)) visit(value.components);
  return out;
}

/**
 * `variantJson` of many variants (a list page) with batched reads instead of reads per variant:
 * their types, component types and snippets, and the default-language variants that
 * non-localizable values are shown from.
 */
export async function variantsJson(
  variants: readonly VariantRecord[],
  options: { lookups: ContentLookups; version: 'v2' },
): Promise<VariantJson[]>;
export async function variantsJson(
  variants: readonly VariantRecord[],
  options: { lookups: ContentLookups; version: 'v1' | 'v2' },
): Promise<AnyVariantJson[]>;
export async function variantsJson(
  variants: readonly VariantRecord[],
  options: { lookups: ContentLookups; version: 'v1' | 'v2' },
): Promise<AnyVariantJson[]> {
  const { lookups } = options;
  const typeIds = new Set(variants.map((v) => v.typeId));
  for (const v of variants) componentTypeIds(v.elements, typeIds);
  await lookups.preloadTypes(typeIds);
  const sharing = [];
  for (const v of variants) {
    if (v.languageId === zeroId) continue;
    const type = await lookups.type({ id: v.typeId });
    if (type?.elements.some((d) => d['is_non_localizable'] === true)) sharing.push(v.itemId);
  }
  if (sharing.length > 0) {
    await lookups.preloadDefaultVariants(sharing);
    const shared = new Set<string>();
    for (const itemId of sharing) {
      const base = await lookups.defaultVariant(itemId);
      if (base) componentTypeIds(base.elements, shared);
    }
    await lookups.preloadTypes(shared);
  }
  return Promise.all(variants.map((v) => variantJson(v, options)));
}
