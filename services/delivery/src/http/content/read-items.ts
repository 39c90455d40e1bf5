import type { DeliveryItem, IndexedVariant, ItemFilter, ReadPin, TypeElements } from '@lectern/core';
import { languageChain, type ReadScope } from '@lectern/read-path';
import type { ParsedQuery } from '../query/parse-query.ts';
import { checkArrayOperators } from './array-operators.ts';
import { assembleModularContent } from './modular-content.ts';
import { projectItem } from './project-elements.ts';

/** A `system.language` filter turns language fallbacks off (reference 1.3). */
export function isFallbackDisabled(filters: readonly ItemFilter[]): boolean {
  return filters.some((f) => f.property === 'system.language');
}

/** The checks every item read starts with; the language list and the model hint for the index. */
export async function prepareItemRead(
  scope: ReadScope,
  query: ParsedQuery,
  options: { readonly isFallbackAllowed: boolean },
): Promise<{ readonly languages: readonly string[]; readonly typeElements: TypeElements }> {
  await checkArrayOperators(scope, query.filters);
  const languages = await languageChain(
    scope,
    query.language,
    !options.isFallbackAllowed || isFallbackDisabled(query.filters),
  );
  return { languages, typeElements: await scope.model.typeElements() };
}

/** Projected items plus their `modular_content`, and the charge of the whole answer. */
export async function renderItems(
  scope: ReadScope,
  input: {
    readonly variants: readonly IndexedVariant[];
    readonly languages: readonly string[];
    readonly query: ParsedQuery;
    /** Linked-item levels; 0 for components only (items-feed). */
    readonly depth: number;
    readonly maxItems?: number;
    /** The roots' `ItemQueryResult.pin`: every level of linked items is read at the same watermark. */
    readonly pin?: ReadPin | undefined;
  },
): Promise<{ items: DeliveryItem[]; modularContent: Record<string, DeliveryItem>; charge: number }> {
  const modularContent = await assembleModularContent({
    roots: input.variants,
    depth: input.depth,
    projection: input.query,
    ...(input.maxItems === undefined ? {} : { maxItems: input.maxItems }),
    fetch: (codenames) =>
      scope.index.itemsByCodename({
        projectId: scope.projectId,
        channel: scope.channel,
        languages: input.languages,
        codenames,
        pin: input.pin,
      }),
  });
  const items = input.variants.map((v) => projectItem(v.item, input.query));
  return { items, modularContent, charge: items.length + Object.keys(modularContent).length };
}
