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

/** Codenames one fetch may ask for beyond the level it needs, read ahead for the next level. */
export const maxReadAhead = 100;

/**
 * The codenames a level's hints name that no fetch has asked for yet, at most `maxReadAhead` (a
 * level of 2,000 variants may hint at many more: the walk stops once it has enough).
 */
function readAheadOf(
  level: readonly IndexedVariant[],
  isWanted: ReadonlySet<string>,
  out: Readonly<Record<string, DeliveryItem>>,
  readAhead: ReadonlyMap<string, IndexedVariant | null>,
): string[] {
  const ahead = new Set<string>();
  for (const variant of level)
    for (const codename of variant.nextLinkedItemCodenames ?? []) {
      if (isWanted.has(codename) || codename in out || readAhead.has(codename)) continue;
      ahead.add(codename);
      if (ahead.size === maxReadAhead) return [...ahead];
    }
  return [...ahead];
}

/**
 * The `modular_content` object of a response: every component of every returned variant (always,
 * unprojected), and linked items breadth-first to `depth` levels (projected). Filters never apply
 * here (SPEC 4.3 rule 7). Throws RESPONSE_TOO_LARGE past 2,000 items in all (SPEC 8).
 *
 * Each level is one fetch. When another level follows, that fetch also reads ahead the codenames
 * the level's variants say their linked items link to (`nextLinkedItemCodenames`, a hint written
 * by the indexer), so that two levels cost one round trip to the index. The hint only chooses what
 * is read early: every level is still the links of the level before, and a codename the hint
 * missed is fetched then; one read ahead and not found is not asked for again (every fetch of an
 * answer reads the same watermark and languages).
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
  /** Variants read ahead, by codename (null: asked for and not found). */
  const readAhead = new Map<string, IndexedVariant | null>();
  let level = options.roots;
  for (let d = 1; d <= options.depth && level.length > 0; d += 1) {
    const wanted = [...new Set(level.flatMap(linksOf))].filter((codename) => !(codename in out));
    if (wanted.length === 0) break;
    const missing = wanted.filter((codename) => !readAhead.has(codename));
    const isWanted = new Set(wanted);
    const ahead = d < options.depth && missing.length > 0 ? readAheadOf(level, isWanted, out, readAhead) : [];
    const fetched = missing.length > 0 ? await options.fetch([...missing, ...ahead]) : [];
    const found = wanted.flatMap((codename) => readAhead.get(codename) ?? []);
    for (const codename of ahead) readAhead.set(codename, null);
    for (const variant of fetched) {
      const codename = variant.item.system.codename;
      if (isWanted.has(codename)) found.push(variant);
      else readAhead.set(codename, variant);
    }
    for (const variant of found) {
      add(variant.item.system.codename, projectItem(variant.item, options.projection));
      addComponents(variant);
    }
    level = found;
  }
  return out;
}
