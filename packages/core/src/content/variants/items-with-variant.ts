import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import { systemStepIds } from '../../model/defaults.ts';
import {
  assertModelAccess,
  at,
  isRecord,
  paginate,
  Problems,
  readReference,
  recordKeyOf,
  type Continuation,
  type ModelInput,
  type Page,
} from '../../model/shared/index.ts';
import { itemJson, type ContentItemRecord } from '../items/item-record.ts';
import { checkPublishable } from '../workflow/required.ts';
import { readVariantFilter, type VariantFilter } from './filter-input.ts';
import { ContentLookups } from './lookups.ts';
import { variantsJson } from './variant-json.ts';
import type { StoredComponent, StoredElements, VariantRecord } from './variant-record.ts';

/*
 * `POST /items-with-variant/filter` and `/bulk-get` (reference §2.3, §3.3, §3.4), 50 pairs a page
 * with `x-continuation` (the client sends the same body again with the token). The filter reads
 * the project's items and their variants in the language and matches in memory: a request costs
 * in proportion to the project's items, whatever the page.
 */

export const itemsWithVariantPageSize = 50;
export const bulkGetMax = 100;

function componentTypes(elements: StoredElements, out = new Set<string>()): Set<string> {
  const visit = (components: readonly StoredComponent[] | undefined) => {
    for (const c of components ?? []) {
      out.add(c.type.id);
      for (const value of Object.values(c.elements)) visit(value.components);
    }
  };
  for (const value of Object.values(elements)) visit(value.components);
  return out;
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, ' ');

async function matches(
  lookups: ContentLookups,
  f: VariantFilter,
  item: ContentItemRecord,
  v: VariantRecord | null,
): Promise<boolean> {
  if (f.typeIds && !f.typeIds.has(item.typeId)) return false;
  if (f.collectionIds && !f.collectionIds.has(item.collectionId)) return false;
  const type = await lookups.type({ id: item.typeId });
  const defs = type?.elements ?? [];
  if (f.completion) {
    const status = (() => {
      if (!v) return 'not_translated';
      if (v.stepId === systemStepIds.published || v.stepId === systemStepIds.archived) return 'all_done';
      const problems = new Problems();
      checkPublishable(defs, v.elements, problems);
      return problems.isEmpty ? 'ready' : 'unfinished';
    })();
    const wanted = f.completion.has(status) || (status === 'ready' && f.completion.has('completed'));
    if (!wanted) return false;
  } else if (!v) return false;
  if (f.searchPhrase !== null) {
    const texts = [item.name];
    for (const def of defs) {
      const value = v?.elements[def.id]?.value;
      if (typeof value !== 'string') continue;
      if (def.type === 'rich_text') texts.push(stripTags(value));
      else if (def.type === 'text' || def.type === 'url_slug' || def.type === 'custom') texts.push(value);
    }
    if (!texts.some((t) => t.toLowerCase().includes(f.searchPhrase as string))) return false;
  }
  if (!v) return f.contributorIds === null && f.steps === null && f.taxonomies === null && f.publishing === null;
  if (f.componentTypeIds) {
    const found = componentTypes(v.elements);
    if (![...f.componentTypeIds].some((t) => found.has(t))) return false;
  }
  if (f.hasNoContributors && v.contributors.length > 0) return false;
  if (f.contributorIds && !v.contributors.some((c) => f.contributorIds?.has(c.id))) return false;
  if (f.steps && !f.steps.some((s) => s.workflowId === v.workflowId && s.stepIds.has(v.stepId))) return false;
  if (f.publishing) {
    const state =
      v.published !== null ? 'published' : v.stepId === systemStepIds.archived ? 'unpublished' : 'not_published_yet';
    if (!f.publishing.has(state)) return false;
  }
  for (const t of f.taxonomies ?? []) {
    const elements = defs.filter(
      (d) => d.type === 'taxonomy' && (d['taxonomy_group'] as { id?: string })?.id === t.groupId,
    );
    const terms = elements.flatMap((d) => {
      const value = v.elements[d.id]?.value;
      return Array.isArray(value) ? (value as { id: string }[]).map((x) => x.id) : [];
    });
    const isMatch = terms.some((id) => t.elementTermIds.has(id)) || (t.includeUncategorized && terms.length === 0);
    if (!isMatch) return false;
  }
  return true;
}

function compare(f: VariantFilter) {
  const order = f.order;
  return (
    a: { item: ContentItemRecord; v: VariantRecord | null },
    b: { item: ContentItemRecord; v: VariantRecord | null },
  ) => {
    if (!order) return 0;
    const key = (x: typeof a): string =>
      order.by === 'name'
        ? x.item.name.toLowerCase()
        : order.by === 'due_date'
          ? (x.v?.dueDate ?? '')
          : (x.v?.lastModified.toISOString() ?? '');
    const c = key(a).localeCompare(key(b));
    return order.direction === 'desc' ? -c : c;
  };
}

/** One page of `{item: {id}, language: {id}}` pairs matching the filter (items in creation order unless `order`). */
export async function filterItemsWithVariant(
  deps: CoreDeps,
  input: ModelInput & { body: unknown; continuation?: Continuation | undefined },
): Promise<Page<{ item: { id: string }; language: { id: string } }>> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const lookups = new ContentLookups(tx, input.projectId);
    const filter = await readVariantFilter(lookups, input.body);
    const items = await tx.items.list(input.projectId);
    const variants = await tx.variants.findManyInLanguage(
      input.projectId,
      filter.languageId,
      items.map((i) => i.id),
    );
    const byItem = new Map(variants.map((v) => [v.itemId, v]));
    await lookups.preloadTypes(new Set(items.map((i) => i.typeId)));
    const found: { item: ContentItemRecord; v: VariantRecord | null }[] = [];
    for (const item of items) {
      const v = byItem.get(item.id) ?? null;
      if (await matches(lookups, filter, item, v)) found.push({ item, v });
    }
    found.sort(compare(filter));
    const page = paginate(found, { continuation: input.continuation, pageSize: itemsWithVariantPageSize });
    return {
      items: page.items.map((x) => ({ item: { id: x.item.id }, language: { id: filter.languageId } })),
      continuationToken: page.continuationToken,
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
): Promise<Page<Record<string, unknown>>> {
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
    const found = await Promise.all(
      page.items.map(async (p) => tx.variants.find(input.projectId, p.item.id, p.languageId)),
    );
    const rendered = await variantsJson(
      found.filter((v): v is VariantRecord => v !== null),
      { lookups, version: 'v2' },
    );
    const data: Record<string, unknown>[] = [];
    let next = 0;
    for (const [i, p] of page.items.entries()) {
      const item = itemJson(p.item, { version: 'v2', spaces: await lookups.spacesOf(p.item.collectionId) });
      data.push(found[i] ? { item, variant: rendered[next++] } : { item });
    }
    return { items: data, continuationToken: page.continuationToken };
  });
}
