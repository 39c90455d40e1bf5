export {
  deleteVariant,
  getVariant,
  listVariantsBy,
  listVariantsOfItem,
  upsertVariant,
  type VariantInput,
} from './variants.ts';
export {
  noSchedule,
  type PublishedVersion,
  type StoredComponent,
  type StoredElements,
  type StoredElementValue,
  type VariantRecord,
  type VariantSchedule,
} from './variant-record.ts';
export { bulkGetItemsWithVariant, filterItemsWithVariant } from './items-with-variant.ts';
export type {
  AnyVariantJson,
  ComponentJson,
  ElementsJsonV1,
  ElementValueJson,
  IdJson,
  ItemWithVariantJson,
  VariantJson,
  VariantJsonV1,
} from './variant-wire.ts';
export type { CompletionRule, ElementCheck, VariantQuery, VariantQueryKey, VariantQueryPage } from './variant-query.ts';
export { assertIfMatch, getVariantWithEtag, variantEtag } from './variant-etag.ts';
