import { isUuid } from '../../domain/uuid.ts';
import type { ElementBody } from '../../model/content-types/model.ts';
import { at, idFromExternalId, isRecord, readReference, recordKeyOf } from '../../model/shared/index.ts';
import { emptyRichText, normalizeRichText, type RichTextRefs } from '../rich-text/index.ts';
import type { StoredComponent, StoredElementValue } from './variant-record.ts';
import { maxComponentDepth, type ElementsReader, type ValueContext } from './value-context.ts';
import { checkTextLength } from './value-rules.ts';

/** Codenames named in the HTML (`data-codename`, `data-item-codename`, `data-asset-codename`). */
function codenamesIn(html: string, attribute: RegExp): string[] {
  return [...new Set([...html.matchAll(attribute)].map((m) => m[1] ?? ''))];
}

/**
 * Items and assets referenced by codename in the HTML, looked up before the (synchronous)
 * normalisation; a codename that names nothing maps to null.
 */
async function codenameIds(html: string, ctx: ValueContext) {
  const items = new Map<string, string | null>();
  for (const codename of codenamesIn(html, /data-(?:item-)?codename\s*=\s*"([^"]*)"/g))
    items.set(codename, (await ctx.lookups.item({ codename }))?.id ?? null);
  const assets = new Map<string, string | null>();
  for (const codename of codenamesIn(html, /data-asset-codename\s*=\s*"([^"]*)"/g))
    assets.set(codename, (await ctx.lookups.tx.assets.find(ctx.lookups.projectId, { codename }))?.id ?? null);
  return { items, assets };
}

function refsFor(ctx: ValueContext, byCodename: Awaited<ReturnType<typeof codenameIds>>): RichTextRefs {
  const projectId = ctx.lookups.projectId;
  const byName = (map: Map<string, string | null>, noun: string) => (codename: string, path: string) => {
    const id = map.get(codename) ?? null;
    if (id === null) ctx.problems.add(path, `The ${noun} with codename '${codename}' was not found.`);
    return id;
  };
  return {
    resolveItemCodename: byName(byCodename.items, 'content item'),
    resolveAssetCodename: byName(byCodename.assets, 'asset'),
    resolveItem(ref, path) {
      if ('id' in ref) {
        if (!isUuid(ref.id)) {
          ctx.problems.add(path, `'${ref.id}' is not a valid content item id.`);
          return null;
        }
        const id = ref.id.toLowerCase();
        ctx.itemChecks.push({ id, path, isRequiredToExist: true, allowedTypes: [] });
        return id;
      }
      return idFromExternalId({ projectId, kind: 'content_item', externalId: ref.external_id });
    },
    resolveAsset(ref, path) {
      if ('id' in ref) {
        if (!isUuid(ref.id)) {
          ctx.problems.add(path, `'${ref.id}' is not a valid asset id.`);
          return null;
        }
        ctx.assetChecks.push({ id: ref.id.toLowerCase(), path });
        return ref.id.toLowerCase();
      }
      return idFromExternalId({ projectId, kind: 'asset', externalId: ref.external_id });
    },
  };
}

/** The text of an HTML value, for length limits. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/g, 'x')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A rich text value (SPEC 2.4): the HTML through `normalizeRichText`, and the `components` array,
 * each component's values read against its own type. Every component object in the HTML needs
 * its component and every component its object; components nest at most six levels. Components'
 * elements are read with `readElements`, passed in (it calls back here for nested rich text).
 */
export async function readRichTextValue(
  def: ElementBody,
  entry: Record<string, unknown>,
  path: string,
  readers: { ctx: ValueContext; readElements: ElementsReader },
): Promise<StoredElementValue | null> {
  const { ctx } = readers;
  const { problems } = ctx;
  const before = problems.count;
  const html = entry['value'];
  if (html !== null && html !== undefined && typeof html !== 'string') {
    problems.add(path, 'must be a string of HTML');
    return null;
  }
  const entryPath = ctx.version === 'v2' ? path.replace(/\.value$/, '') : path;
  const rawComponents = entry['components'];
  if (html === null || html === undefined || html.trim() === '') {
    if (Array.isArray(rawComponents) && rawComponents.length > 0)
      problems.add(at(entryPath, 'components'), 'The rich text value places none of these components.');
    return problems.count === before ? { value: emptyRichText, components: [] } : null;
  }
  const refs = refsFor(ctx, await codenameIds(html, ctx));
  const result = normalizeRichText({ html, path, problems, refs });
  if (!result) return null;
  checkTextLength(textOf(result.html), def['maximum_text_length'], path, problems);
  if (ctx.version === 'v1') {
    if (result.componentIds.length > 0)
      problems.add(path, 'Components in rich text are available in Management API v2 only.');
    return problems.count === before ? { value: result.html, components: [] } : null;
  }
  const read = await readComponents(def, rawComponents, at(entryPath, 'components'), readers);
  if (read) {
    const placed = new Set(result.componentIds);
    for (const [i, id] of read.ids.entries())
      if (id !== null && !placed.has(id))
        problems.add(at(at(entryPath, 'components'), i), `The component '${id}' is not placed in the rich text value.`);
    const given = new Set(read.ids);
    for (const id of placed)
      if (!given.has(id)) problems.add(path, `The component object '${id}' has no entry in 'components'.`);
  }
  return problems.count === before && read ? { value: result.html, components: read.components } : null;
}

async function readComponents(
  def: ElementBody,
  value: unknown,
  path: string,
  { ctx, readElements }: { ctx: ValueContext; readElements: ElementsReader },
): Promise<{ components: StoredComponent[]; ids: (string | null)[] } | null> {
  if (value === undefined || value === null) return { components: [], ids: [] };
  if (!Array.isArray(value)) {
    ctx.problems.add(path, 'must be an array of components');
    return null;
  }
  if (value.length > 0 && ctx.depth + 1 > maxComponentDepth) {
    ctx.problems.add(path, `Components nest at most ${maxComponentDepth} levels.`);
    return null;
  }
  const allowed = ((def['allowed_content_types'] ?? []) as { id: string }[]).map((t) => t.id);
  const out: StoredComponent[] = [];
  const ids: (string | null)[] = value.map((raw) =>
    isRecord(raw) && typeof raw['id'] === 'string' && isUuid(raw['id']) ? raw['id'].toLowerCase() : null,
  );
  const seen = new Set<string>();
  for (const [i, raw] of value.entries()) {
    const p = at(path, i);
    if (!isRecord(raw)) {
      ctx.problems.add(p, 'A component must be an object {id, type, elements}.');
      continue;
    }
    const id = raw['id'];
    if (typeof id !== 'string' || !isUuid(id)) {
      ctx.problems.add(at(p, 'id'), 'must be the uuid of the component (its data-id in the HTML)');
      continue;
    }
    if (seen.has(id.toLowerCase())) ctx.problems.add(at(p, 'id'), `The component id '${id}' is used twice.`);
    seen.add(id.toLowerCase());
    const ref = readReference(raw['type'], at(p, 'type'), ctx.problems);
    const type = ref ? await ctx.lookups.type(recordKeyOf(ref)) : null;
    if (ref && !type) ctx.problems.add(at(p, 'type'), 'The content type of the component was not found.');
    if (!type) continue;
    if (allowed.length > 0 && !allowed.includes(type.record.id))
      ctx.problems.add(at(p, 'type'), `Components of type '${type.record.codename}' are not allowed in this element.`);
    const elements = await readElements({
      defs: type.elements,
      raw: raw['elements'] ?? [],
      path: at(p, 'elements'),
      ctx: { ...ctx, depth: ctx.depth + 1 },
    });
    if (elements)
      out.push({ id: id.toLowerCase(), type: { id: type.record.id }, elements: Object.fromEntries(elements) });
  }
  return { components: out, ids };
}
