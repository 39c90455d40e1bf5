import type { DeliveryItem } from '@lectern/core';

export interface Projection {
  readonly elements: readonly string[] | null;
  readonly excludeElements: readonly string[] | null;
}

/**
 * `elements` keeps only the named elements (none of them present: empty elements);
 * `excludeElements` drops the named ones. `system` is always returned (SPEC 2.7).
 */
export function projectElements<E>(elements: Readonly<Record<string, E>>, projection: Projection): Record<string, E> {
  const keep = projection.elements === null ? null : new Set(projection.elements);
  const drop = new Set(projection.excludeElements ?? []);
  const out: Record<string, E> = {};
  for (const [codename, element] of Object.entries(elements)) {
    if ((keep === null || keep.has(codename)) && !drop.has(codename)) out[codename] = element;
  }
  return out;
}

export function projectItem(item: DeliveryItem, projection: Projection): DeliveryItem {
  if (projection.elements === null && projection.excludeElements === null) return item;
  return { system: item.system, elements: projectElements(item.elements, projection) };
}
