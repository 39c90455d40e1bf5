import type { DeliveryItem, IndexedVariant } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { projectItem, type Projection } from './project-elements.ts';

/** SPEC 8: items and `modular_content` together. */
export const maxResponseItems = 2_000;

export function responseTooLarge(): LecternError {
  return new LecternError('RESPONSE_TOO_LARGE');
}

export interface ModularContentOptions {
  /** The variants of the response's `items` (or `item`). */
  readonly roots: readonly IndexedVariant[];
  /** Levels of linked items; 0: components only. */
  readonly depth: number;
  readonly projection: Projection;
  /** Variants of these codenames, in the response's languages (the index multi-get). */
  readonly fetch: (codenames: readonly string[]) => Promise<readonly IndexedVariant[]>;
  /** Items allowed in the response, roots included (default SPEC 8's 2,000; the feed pages itself). */
  readonly maxItems?: number;
}

/** Codenames of items a component links to (a component may hold linked items or inserted items). */
function componentLinks(components: Readonly<Record<string, DeliveryItem>>): string[] {
  const out: string[] = [];
  for (const component of Object.values(components)) {
    for (const element of Object.values(component.elements)) {
      const list = element.type === 'modular_content' ? element.value : element['modular_content'];
      if (!Array.isArray(list)) continue;
      for (const codename of list) {
        if (typeof codename === 'string' && !(codename in components)) out.push(codename);
      }
    }
  }
  return out;
}

function linksOf(variant: IndexedVariant): string[] {
  return [...variant.linkedItemCodenames, ...componentLinks(variant.components)];
}

/**
 * The `modular_content` object of a response: every component of every returned variant (always,
 * unprojected), and linked items breadth-first to `depth` levels (projected). Filters never apply
 * here (SPEC 4.3 rule 7). Throws RESPONSE_TOO_LARGE past 2,000 items in all (SPEC 8).
 */
export async function assembleModularContent(options: ModularContentOptions): Promise<Record<string, DeliveryItem>> {
  const out: Record<string, DeliveryItem> = {};
  let count = options.roots.length;
  const max = options.maxItems ?? maxResponseItems;
  const add = (codename: string, item: DeliveryItem) => {
    if (codename in out) return;
    out[codename] = item;
    count += 1;
    if (count > max) throw responseTooLarge();
  };
  const addComponents = (variant: IndexedVariant) => {
    for (const [codename, component] of Object.entries(variant.components)) add(codename, component);
  };
  options.roots.forEach(addComponents);
  let level = options.roots;
  for (let d = 1; d <= options.depth && level.length > 0; d += 1) {
    const wanted = [...new Set(level.flatMap(linksOf))].filter((codename) => !(codename in out));
    if (wanted.length === 0) break;
    const found = await options.fetch(wanted);
    for (const variant of found) {
      add(variant.item.system.codename, projectItem(variant.item, options.projection));
      addComponents(variant);
    }
    level = found;
  }
  return out;
}
