import { assertNever } from '@lectern/errors';
import type { ElementBody } from '../../model/content-types/model.ts';
import type { TaxonomyTermBody } from '../../model/taxonomies/taxonomy-terms.ts';
import {
  at,
  characterCount,
  describeReference,
  idFromExternalId,
  readReference,
  type Reference,
} from '../../model/shared/index.ts';
import { readRenditionRefs } from '../assets/rendition-query.ts';
import type { StoredElementValue } from './variant-record.ts';
import { customMax, textMax, type ValueContext } from './value-context.ts';
import { checkCountLimit, checkRegex, checkTextLength, readDateTime, readTimeZone } from './value-rules.ts';

type Limit = { value: number; condition: 'at_most' | 'exactly' | 'at_least' } | null;

/**
 * Reads one element value of a request against its definition (reference §3.1) and returns it in
 * stored form, or null after recording problems. `entry` holds `value` and the kind's extra
 * properties (`mode`, `display_timezone`, `components`, `searchable_value`); `path` names the
 * value in the request. Rich text values, which nest elements, are `readRichTextValue`'s.
 */
export async function readElementValue(
  def: ElementBody,
  entry: Record<string, unknown>,
  path: string,
  ctx: ValueContext,
): Promise<StoredElementValue | null> {
  const { problems } = ctx;
  const value = entry['value'];
  const before = countOf(problems);
  const fail = (message: string): null => {
    problems.add(path, message);
    return null;
  };
  switch (def.type) {
    case 'text': {
      if (value !== null && value !== undefined && typeof value !== 'string') return fail('must be a string or null');
      const text = value ?? '';
      if (characterCount(text) > textMax) return fail(`must be at most ${textMax} characters`);
      checkTextLength(text, def['maximum_text_length'], path, problems);
      checkRegex(text, def['validation_regex'], path, problems);
      return countOf(problems) === before ? { value: text } : null;
    }
    case 'number':
      if (value === null || value === undefined) return { value: null };
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('must be a number or null');
      return { value };
    case 'date_time': {
      const date = readDateTime(value, path, problems);
      const zone = readTimeZone(entry['display_timezone'], at(pathOfEntry(path, ctx), 'display_timezone'), problems);
      if (countOf(problems) !== before) return null;
      return { value: date, display_timezone: zone };
    }
    case 'custom': {
      if (value !== null && value !== undefined && typeof value !== 'string') return fail('must be a string or null');
      if (typeof value === 'string' && characterCount(value) > customMax)
        return fail(`must be at most ${customMax} characters`);
      const searchable = entry['searchable_value'];
      if (searchable !== undefined && searchable !== null && typeof searchable !== 'string')
        problems.add(at(pathOfEntry(path, ctx), 'searchable_value'), 'must be a string or null');
      if (countOf(problems) !== before) return null;
      return { value: value ?? null, searchable_value: typeof searchable === 'string' ? searchable : null };
    }
    case 'url_slug':
      return readUrlSlug(def, entry, path, ctx);
    case 'multiple_choice': {
      const options = (def['options'] ?? []) as { id: string; codename: string; external_id?: string }[];
      const ids = readRefs(value, path, ctx, (ref, p) => {
        const o = options.find((x) => matches(x, ref));
        if (!o) problems.add(p, `The option with ${describeReference(ref)} was not found in this element.`);
        return o?.id ?? null;
      });
      if (ids && def['mode'] === 'single' && ids.length > 1)
        return fail('A single-choice element takes at most one option.');
      return ids && countOf(problems) === before ? { value: ids.map((id) => ({ id })) } : null;
    }
    case 'asset': {
      const refs = readRefList(value, path, ctx);
      if (!refs) return null;
      const out: { id: string; renditions?: { id: string }[] }[] = [];
      for (const [i, { ref, path: p }] of refs.entries()) {
        const id = await resolveAssetRef(ref, p, ctx);
        if (id === null || out.some((o) => o.id === id)) continue;
        const { tx, projectId } = ctx.lookups;
        const raw = (value as unknown[])[i];
        const renditions = await readRenditionRefs({ raw, assetId: id, path: p, tx, projectId, problems });
        out.push(renditions.length > 0 ? { id, renditions } : { id });
      }
      checkCountLimit(out.length, def['asset_count_limit'] as Limit, 'assets', path, problems, false);
      return countOf(problems) === before ? { value: out } : null;
    }
    case 'modular_content':
    case 'subpages': {
      const allowedTypes = ((def['allowed_content_types'] ?? []) as { id: string }[]).map((t) => t.id);
      const refs = readRefList(value, path, ctx);
      if (!refs) return null;
      const ids: string[] = [];
      for (const { ref, path: p } of refs) {
        const id = await resolveItemRef(ref, p, allowedTypes, ctx);
        if (id !== null && !ids.includes(id)) ids.push(id);
      }
      checkCountLimit(ids.length, def['item_count_limit'] as Limit, 'items', path, problems, false);
      return countOf(problems) === before ? { value: ids.map((id) => ({ id })) } : null;
    }
    case 'taxonomy': {
      const groupId = (def['taxonomy_group'] as { id: string } | null)?.id;
      const group = groupId ? await ctx.lookups.taxonomy(groupId) : null;
      const ids = readRefs(value, path, ctx, (ref, p) => {
        const term = group ? findTerm(group.body.terms, ref) : null;
        if (term) return term.id;
        if ('external_id' in ref)
          return idFromExternalId({
            projectId: ctx.lookups.projectId,
            kind: 'taxonomy_term',
            externalId: ref.external_id,
          });
        problems.add(
          p,
          `The taxonomy term with ${describeReference(ref)} was not found in the element's taxonomy group.`,
        );
        return null;
      });
      if (ids) checkCountLimit(ids.length, def['term_count_limit'] as Limit, 'terms', path, problems, false);
      return ids && countOf(problems) === before ? { value: ids.map((id) => ({ id })) } : null;
    }
    case 'guidelines':
    case 'snippet':
      return fail('This element holds no value.');
    case 'rich_text':
      // elements-reader.ts hands rich text, which nests elements, to readRichTextValue.
      throw new Error('readElementValue got a rich text element; readRichTextValue reads those.');
    default:
      return assertNever(def.type, 'element type');
  }
}

/** Path of the entry object that holds `value` (v2: `elements[i]`; v1 values stand alone). */
function pathOfEntry(valuePath: string, ctx: ValueContext): string {
  return ctx.version === 'v2' ? valuePath.replace(/\.value$/, '') : valuePath;
}

function countOf(problems: ValueContext['problems']): number {
  return problems.count;
}

function matches(x: { id?: unknown; codename?: unknown; external_id?: unknown }, ref: Reference): boolean {
  return (
    ('id' in ref && x.id === ref.id) ||
    ('codename' in ref && x.codename === ref.codename) ||
    ('external_id' in ref && x.external_id === ref.external_id)
  );
}

function findTerm(terms: readonly TaxonomyTermBody[], ref: Reference): TaxonomyTermBody | null {
  for (const t of terms) {
    if (matches(t, ref)) return t;
    const inner = findTerm(t.terms, ref);
    if (inner) return inner;
  }
  return null;
}

function readRefList(value: unknown, path: string, ctx: ValueContext): { ref: Reference; path: string }[] | null {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) {
    ctx.problems.add(path, 'must be an array of reference objects');
    return null;
  }
  const out: { ref: Reference; path: string }[] = [];
  for (const [i, v] of value.entries()) {
    const ref = readReference(v, at(path, i), ctx.problems);
    if (ref) out.push({ ref, path: at(path, i) });
  }
  return out.length === value.length ? out : null;
}

function readRefs(
  value: unknown,
  path: string,
  ctx: ValueContext,
  resolve: (ref: Reference, path: string) => string | null,
): string[] | null {
  const refs = readRefList(value, path, ctx);
  if (!refs) return null;
  const ids: string[] = [];
  for (const { ref, path: p } of refs) {
    const id = resolve(ref, p);
    if (id !== null && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * An asset reference: by id or codename (must exist), or by external id (may name an asset not
 * uploaded yet: it resolves to the id that asset will get).
 */
async function resolveAssetRef(ref: Reference, path: string, ctx: ValueContext): Promise<string | null> {
  if ('external_id' in ref)
    return idFromExternalId({ projectId: ctx.lookups.projectId, kind: 'asset', externalId: ref.external_id });
  if ('id' in ref) {
    ctx.assetChecks.push({ id: ref.id, path });
    return ref.id;
  }
  const asset = await ctx.lookups.tx.assets.find(ctx.lookups.projectId, { codename: ref.codename });
  if (!asset) ctx.problems.add(path, `The asset with codename '${ref.codename}' was not found.`);
  return asset?.id ?? null;
}

/** An item reference: by id (must exist), codename (must exist) or external id (may not exist yet). */
export async function resolveItemRef(
  ref: Reference,
  path: string,
  allowedTypes: readonly string[],
  ctx: ValueContext,
): Promise<string | null> {
  if ('codename' in ref) {
    const item = await ctx.lookups.item({ codename: ref.codename });
    if (!item) {
      ctx.problems.add(path, `The content item with codename '${ref.codename}' was not found.`);
      return null;
    }
    ctx.itemChecks.push({ id: item.id, path, isRequiredToExist: true, allowedTypes });
    return item.id;
  }
  const id =
    'id' in ref
      ? ref.id
      : idFromExternalId({ projectId: ctx.lookups.projectId, kind: 'content_item', externalId: ref.external_id });
  ctx.itemChecks.push({ id, path, isRequiredToExist: 'id' in ref, allowedTypes });
  return id;
}

function readUrlSlug(
  def: ElementBody,
  entry: Record<string, unknown>,
  path: string,
  ctx: ValueContext,
): StoredElementValue | null {
  const { problems } = ctx;
  const mode = entry['mode'];
  const value = entry['value'];
  if (ctx.version === 'v1') {
    if (typeof value !== 'string') return (problems.add(path, 'must be a string'), null);
    checkRegex(value, def['validation_regex'], path, problems);
    return { value, mode: 'custom' };
  }
  const modePath = at(pathOfEntry(path, ctx), 'mode');
  if (mode === 'autogenerated') return { value: '', mode: 'autogenerated' };
  if (mode !== 'custom') {
    problems.add(modePath, 'A URL slug needs "mode": "autogenerated" (made from its text element) or "custom".');
    return null;
  }
  if (typeof value !== 'string') return (problems.add(path, 'must be a string'), null);
  if (characterCount(value) > textMax) return (problems.add(path, `must be at most ${textMax} characters`), null);
  return checkRegex(value, def['validation_regex'], path, problems) ? { value, mode: 'custom' } : null;
}
