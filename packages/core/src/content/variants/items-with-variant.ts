import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import {
  assertModelAccess,
  at,
  isRecord,
  mixedKeyAfter,
  mixedKeyToken,
  paginate,
  Problems,
  readReference,
  recordKeyOf,
  type Continuation,
  type ModelInput,
  type Page,
} from '../../model/shared/index.ts';
import { itemJson, type ContentItemRecord } from '../items/item-record.ts';
import { readVariantFilter } from './filter-input.ts';
import { ContentLookups } from './lookups.ts';
import { variantsJson } from './variant-json.ts';
import type { VariantRecord } from './variant-record.ts';
import type { VariantQuery } from './variant-query.ts';
import type { ItemWithVariantJson } from './variant-wire.ts';
import { buildVariantQuery } from './variant-query-build.ts';

/*
 * `POST /items-with-variant/filter` and `/bulk-get` (reference §2.3, §3.3, §3.4), 50 pairs a page
 * with `x-continuation` (the client sends the same body again with the token). The filter runs in
 * the store (VariantQuery) and pages by key; bulk-get reads the pairs it is given.
 */

export const itemsWithVariantPageSize = 50;
export const bulkGetMax = 100;

/** The keyset list of one filter: a token is valid only for the same project, language and order. */
function filterList(projectId: string, query: VariantQuery) {
  const kinds: ('string' | 'number')[] = query.order.by === 'position' ? ['number'] : ['string', 'number'];
  const scope = [
    projectId,
    query.languageId,
    query.order.by,
    query.order.direction,
    String(query.completion?.isNotTranslated === true),
  ];
  return { name: 'items-with-variant', scope, kinds };
}

/**
 * One page of `{item: {id}, language: {id}}` pairs matching the filter: items in creation order
 * unless `order` (ties in creation order, reversed when descending). The store answers it with one
 * indexed query read after the previous page's key, so a page costs about the same at any depth.
 */
export async function filterItemsWithVariant(
  deps: CoreDeps,
  input: ModelInput & { body: unknown; continuation?: Continuation | undefined },
): Promise<Page<{ item: { id: string }; language: { id: string } }>> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const lookups = new ContentLookups(tx, input.projectId);
    const filter = await readVariantFilter(lookups, input.body);
    const query = await buildVariantQuery(lookups, filter);
    const list = filterList(input.projectId, query);
    const after = mixedKeyAfter(list, input.continuation);
    const page = await tx.variants.filterPage(input.projectId, query, { after, limit: itemsWithVariantPageSize });
    return {
      items: page.itemIds.map((id) => ({ item: { id }, language: { id: filter.languageId } })),
      continuationToken: mixedKeyToken(list, page.next),
    };
  });
}

/**
 * One page of `{item, variant?}` for up to 100 `{item, language}` pairs, in request order; a pair
 * without a variant has no `variant`. References that resolve to nothing are refused (274).
 */
export async function bulkGetItemsWithVariant(
  deps: CoreDeps,
  input: ModelInput & { body: unknown; continuation?: Continuation | undefined },
): Promise<Page<ItemWithVariantJson>> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const lookups = new ContentLookups(tx, input.projectId);
    const problems = new Problems();
    const raw = isRecord(input.body) ? input.body['variants'] : undefined;
    if (!Array.isArray(raw) || raw.length === 0)
      problems.add('variants', 'must be a non-empty array of {item, language}');
    else if (raw.length > bulkGetMax) problems.add('variants', `Provide at most ${bulkGetMax} pairs per request.`);
    problems.throwIfAny();
    const pairs: { item: ContentItemRecord; languageId: string }[] = [];
    const unresolved: { path: string; message: string }[] = [];
    // Items named by id (the usual case: the filter's answer) are read in one query.
    await lookups.preloadItems(
      (raw as unknown[]).flatMap((pair) => {
        const item = isRecord(pair) && isRecord(pair['item']) ? pair['item']['id'] : undefined;
        return typeof item === 'string' ? [item] : [];
      }),
    );
    for (const [i, pair] of (raw as unknown[]).entries()) {
      const path = at('variants', i);
      const p = isRecord(pair) ? pair : {};
      const itemRef = readReference(p['item'], at(path, 'item'), problems);
      const languageRef = readReference(p['language'], at(path, 'language'), problems);
      if (!itemRef || !languageRef) continue;
      const item = await lookups.item(recordKeyOf(itemRef));
      const language = await lookups.language(recordKeyOf(languageRef));
      if (!item) unresolved.push({ path: at(path, 'item'), message: 'The content item was not found.' });
      if (!language) unresolved.push({ path: at(path, 'language'), message: 'The language was not found.' });
      if (item && language) pairs.push({ item, languageId: language.id });
    }
    problems.throwIfAny();
    if (unresolved.length > 0) throw new LecternError('BULK_GET_REFERENCES_INVALID', { problems: unresolved });
    const page = paginate(pairs, { continuation: input.continuation, pageSize: itemsWithVariantPageSize });
    // The page's variants in one query per language.
    const byPair = new Map<string, VariantRecord>();
    for (const languageId of new Set(page.items.map((p) => p.languageId))) {
      const itemIds = page.items.filter((p) => p.languageId === languageId).map((p) => p.item.id);
      for (const v of await tx.variants.findManyInLanguage(input.projectId, languageId, itemIds))
        byPair.set(`${v.itemId}|${languageId}`, v);
    }
    const found = page.items.map((p) => byPair.get(`${p.item.id}|${p.languageId}`) ?? null);
    const rendered = await variantsJson(
      found.filter((v): v is VariantRecord => v !== null),
      { lookups, version: 'v2' },
    );
    const data: ItemWithVariantJson[] = [];
    let next = 0;
    for (const [i, p] of page.items.entries()) {
      const item = itemJson(p.item, { version: 'v2', spaces: await lookups.spacesOf(p.item.collectionId) });
      data.push(found[i] ? { item, variant: rendered[next++] } : { item });
    }
    return { items: data, continuationToken: page.continuationToken };
  });
}
