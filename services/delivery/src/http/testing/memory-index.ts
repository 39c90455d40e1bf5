import type {
  DeliveryChannel,
  DeliveryIndexReader,
  IndexedLanguage,
  IndexedVariant,
  ItemQuery,
  ItemQueryResult,
} from '@lectern/core';
import { matchesAll, propertyValue } from '../content/match-filter.ts';

/**
 * A small in-memory DeliveryIndexReader for tests of the HTTP layer on hand-made variants; it
 * follows the port's contract (fallbacks, filters on resolved variants, codename tie-break).
 */
export class MemoryIndex implements DeliveryIndexReader {
  variants: Record<DeliveryChannel, IndexedVariant[]> = { production: [], preview: [] };
  typeList: Record<string, unknown>[] = [];
  taxonomyList: Record<string, unknown>[] = [];
  languageList: IndexedLanguage[] = [];
  mark = 0;
  calls = 0;
  watermarkReads = 0;

  async watermark(): Promise<number> {
    this.watermarkReads += 1;
    return this.mark;
  }

  #resolve(channel: DeliveryChannel, languages: readonly string[]): IndexedVariant[] {
    const byItem = new Map<string, IndexedVariant>();
    for (const language of languages) {
      for (const v of this.variants[channel]) {
        if (v.language === language && !byItem.has(v.itemId)) byItem.set(v.itemId, v);
      }
    }
    return [...byItem.values()];
  }

  async queryItems(query: ItemQuery): Promise<ItemQueryResult> {
    this.calls += 1;
    const order = query.order ?? { property: 'system.codename', direction: 'asc' as const };
    const key = (v: IndexedVariant) => propertyValue(v.item, order.property) as string | number | null;
    const found = this.#resolve(query.channel, query.languages)
      .filter((v) => matchesAll(v.item, query.filters))
      .sort((a, b) => {
        const x = key(a);
        const y = key(b);
        const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
        if (c !== 0) return order.direction === 'asc' ? c : -c;
        return a.item.system.codename < b.item.system.codename ? -1 : 1;
      });
    const end = query.limit === null ? undefined : query.skip + query.limit;
    return { items: found.slice(query.skip, end), totalCount: query.isTotalCountNeeded ? found.length : null };
  }

  async itemsByCodename(options: Parameters<DeliveryIndexReader['itemsByCodename']>[0]): Promise<IndexedVariant[]> {
    const wanted = new Set(options.codenames);
    return this.#resolve(options.channel, options.languages).filter((v) => wanted.has(v.item.system.codename));
  }

  async types(): Promise<Record<string, unknown>[]> {
    return this.typeList;
  }

  async taxonomies(): Promise<Record<string, unknown>[]> {
    return this.taxonomyList;
  }

  async languages(): Promise<IndexedLanguage[]> {
    return this.languageList;
  }

  async usedIn(options: Parameters<DeliveryIndexReader['usedIn']>[0]): Promise<IndexedVariant[]> {
    const target = options.target;
    return this.variants[options.channel].filter((v) =>
      'itemCodename' in target
        ? v.linkedItemCodenames.includes(target.itemCodename)
        : JSON.stringify(v.item.elements).includes(target.assetId),
    );
  }

  async changesSince(): Promise<never[]> {
    return [];
  }
}
