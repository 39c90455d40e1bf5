import type { ItemFilter } from '@lectern/core';
import { invalidQuery, type ReadScope } from '@lectern/read-path';
import { arrayOperators } from '../query/parse-query.ts';

/** Element kinds whose value is a list (SPEC 4.3 rule 5; custom: a stringified array of strings). */
const arrayKinds = new Set(['modular_content', 'subpages', 'multiple_choice', 'taxonomy', 'custom']);

/**
 * Refuses `contains`/`any`/`all` on an element that no content type defines as a list (text,
 * number, asset, …). An element no type knows passes: it matches nothing.
 */
export async function checkArrayOperators(scope: ReadScope, filters: readonly ItemFilter[]): Promise<void> {
  const arrayFilters = filters.filter((f) => arrayOperators.has(f.operator) && f.property.startsWith('elements.'));
  if (arrayFilters.length === 0) return;
  const kinds = new Map<string, Set<string>>();
  for (const type of await scope.model.types()) {
    const elements = (type['elements'] ?? {}) as Record<string, { type?: unknown }>;
    for (const [codename, element] of Object.entries(elements)) {
      const set = kinds.get(codename) ?? new Set<string>();
      set.add(String(element.type));
      kinds.set(codename, set);
    }
  }
  for (const filter of arrayFilters) {
    const known = kinds.get(filter.property.slice('elements.'.length));
    if (known !== undefined && ![...known].some((k) => arrayKinds.has(k))) {
      throw invalidQuery(
        `Operator [${filter.operator}] works only on linked items, multiple choice, taxonomy and custom elements; '${filter.property}' is ${[...known].join(', ')}.`,
      );
    }
  }
}
