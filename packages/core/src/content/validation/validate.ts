import type { CoreDeps } from '../../deps.ts';
import type { ElementBody, ContentTypeBody } from '../../model/content-types/model.ts';
import type { LanguageBody } from '../../model/languages.ts';
import { assertModelAccess, Problems, type ModelInput } from '../../model/shared/index.ts';
import type { TaxonomyBody } from '../../model/taxonomies/index.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { ContentLookups } from '../variants/lookups.ts';
import type { StoredElements } from '../variants/variant-record.ts';
import { checkPublishable } from '../workflow/required.ts';

/*
 * Content validation (reference "Validate content", §2.1): for every variant's latest version,
 * elements that break their type's limits or are required and empty, and references to items,
 * assets or taxonomy terms that do not exist (linked items, subpages, assets, taxonomy terms and
 * rich text links and embeds); for every content type, elements naming a missing taxonomy group,
 * snippet or content type.
 */

export interface Named {
  id: string;
  name: string;
  codename: string;
}

export interface ElementIssue {
  element: Named;
  messages: string[];
}

export interface VariantIssue {
  item: Named;
  language: Named;
  issues: ElementIssue[];
}

export interface TypeIssue {
  type: Named;
  issues: ElementIssue[];
}

export interface ValidationReport {
  variantIssues: VariantIssue[];
  typeIssues: TypeIssue[];
}

function named(def: ElementBody): Named {
  const name = typeof def['name'] === 'string' ? def['name'] : def.codename;
  return { id: def.id, name, codename: def.codename };
}

function termIds(terms: TaxonomyBody['terms'], out = new Set<string>()): Set<string> {
  for (const t of terms) {
    out.add(t.id);
    termIds(t.terms, out);
  }
  return out;
}

interface Known {
  items: Set<string>;
  assets: Set<string>;
  terms: Map<string, Set<string>>;
}

/** References by id in stored rich text: item embeds and links, asset figures and links. */
function richTextRefs(html: string): { items: string[]; assets: string[] } {
  // Components are `data-id` objects too; the caller skips the ids of the element's components.
  const items = [...html.matchAll(/data-(?:item-)?id="([0-9a-f-]{36})"/g)].map((m) => m[1] as string);
  const assets = [...html.matchAll(/data-asset-id="([0-9a-f-]{36})"/g)].map((m) => m[1] as string);
  return { items, assets };
}

/**
 * A text or rich text value over its element's `maximum_text_length` (characters or words; rich
 * text counted without its markup), in Kontent.ai's wording; limits set after the value was
 * written are found here.
 */
function lengthMessage(def: ElementBody, value: unknown, label: string): string | null {
  const limit = def['maximum_text_length'] as { value: number; applies_to: 'characters' | 'words' } | null | undefined;
  if (!limit || typeof value !== 'string' || (def.type !== 'text' && def.type !== 'rich_text')) return null;
  const text = def.type === 'rich_text' ? value.replace(/<[^>]*>/g, ' ').replace(/&[a-z]+;|&#\d+;/g, 'x') : value;
  const count =
    limit.applies_to === 'words'
      ? text.split(/\s+/).filter((w) => w !== '').length
      : def.type === 'rich_text'
        ? text.replace(/\s+/g, ' ').trim().length
        : [...text].length;
  if (count <= limit.value) return null;
  const unit = limit.applies_to === 'words' ? 'word' : 'character';
  return `${label} should have at most ${limit.value} ${unit}(s) but has ${count} ${unit}(s).`;
}

function elementMessages(def: ElementBody, value: unknown, known: Known, componentIds: Set<string>): string[] {
  const out: string[] = [];
  const label = `Element '${named(def).name}'`;
  const ids = Array.isArray(value) ? (value as { id?: string }[]).map((v) => v.id ?? '') : [];
  const length = lengthMessage(def, value, label);
  if (length !== null) out.push(length);
  if (def.type === 'modular_content' || def.type === 'subpages')
    for (const id of ids) if (!known.items.has(id)) out.push(`${label} references a non-existent content item ${id}.`);
  if (def.type === 'asset')
    for (const id of ids) if (!known.assets.has(id)) out.push(`${label} references a non-existent asset ${id}.`);
  if (def.type === 'taxonomy') {
    const group = (def['taxonomy_group'] as { id?: string } | undefined)?.id ?? '';
    const terms = known.terms.get(group);
    for (const id of ids) if (!terms?.has(id)) out.push(`${label} references a non-existent taxonomy term ${id}.`);
  }
  if (def.type === 'rich_text' && typeof value === 'string') {
    const refs = richTextRefs(value);
    for (const id of refs.items)
      if (!known.items.has(id) && !componentIds.has(id))
        out.push(`${label} references a non-existent content item ${id}.`);
    for (const id of refs.assets)
      if (!known.assets.has(id)) out.push(`${label} references a non-existent asset ${id}.`);
  }
  return out;
}

function variantElementIssues(defs: readonly ElementBody[], elements: StoredElements, known: Known): ElementIssue[] {
  const problems = new Problems();
  checkPublishable(defs, elements, problems);
  const byPath = new Map<string, string[]>();
  try {
    problems.throwIfAny();
  } catch (error) {
    for (const p of (error as { problems: { path?: string; message: string }[] }).problems) {
      const list = byPath.get(p.path ?? '') ?? [];
      list.push(p.message);
      byPath.set(p.path ?? '', list);
    }
  }
  const issues: ElementIssue[] = [];
  for (const def of defs) {
    const stored = elements[def.id];
    const componentIds = new Set((stored?.components ?? []).map((c) => c.id));
    // Kontent.ai's wording for an empty required element (recorded validation reports).
    const limits = (byPath.get(`elements.${def.codename}`) ?? []).map((m) =>
      m.includes('is required') ? `Element '${named(def).name}' is required but has no value.` : m,
    );
    const messages = [...limits, ...elementMessages(def, stored?.value, known, componentIds)];
    if (messages.length > 0) issues.push({ element: named(def), messages });
  }
  return issues;
}

async function typeIssues(tx: UnitOfWork, projectId: string): Promise<TypeIssue[]> {
  const types = await tx.model.list<ContentTypeBody>(projectId, 'content_type');
  const typeIds = new Set(types.map((t) => t.id));
  const groups = new Set((await tx.model.list(projectId, 'taxonomy')).map((t) => t.id));
  const snippets = new Set((await tx.model.list(projectId, 'snippet')).map((s) => s.id));
  const out: TypeIssue[] = [];
  for (const type of types) {
    const issues: ElementIssue[] = [];
    for (const def of type.body.elements) {
      const messages: string[] = [];
      const group = (def['taxonomy_group'] as { id?: string } | undefined)?.id;
      if (def.type === 'taxonomy' && group !== undefined && !groups.has(group))
        messages.push(`The taxonomy group '${group}' does not exist.`);
      const snippet = (def['snippet'] as { id?: string } | undefined)?.id;
      if (def.type === 'snippet' && snippet !== undefined && !snippets.has(snippet))
        messages.push(`The content type snippet '${snippet}' does not exist.`);
      for (const key of ['allowed_content_types', 'allowed_item_link_types'])
        for (const ref of (def[key] as { id: string }[] | undefined) ?? [])
          if (!typeIds.has(ref.id)) messages.push(`The content type '${ref.id}' in ${key} does not exist.`);
      if (messages.length > 0) issues.push({ element: named(def), messages });
    }
    if (issues.length > 0) out.push({ type: { id: type.id, name: type.body.name, codename: type.codename }, issues });
  }
  return out;
}

/** Validates the whole project in one transaction (one consistent state). */
export async function validateProjectContent(deps: CoreDeps, input: ModelInput): Promise<ValidationReport> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const lookups = new ContentLookups(tx, input.projectId);
    const items = await tx.items.list(input.projectId);
    const variants = await tx.variants.listByItems(
      input.projectId,
      items.map((i) => i.id),
    );
    const assetIds = new Set<string>();
    for (let after: readonly number[] | null = null; ;) {
      const page = await tx.assets.page(input.projectId, { after, limit: 1000 });
      for (const a of page.rows) assetIds.add(a.id);
      if (page.next === null) break;
      after = page.next;
    }
    const taxonomies = await tx.model.list<TaxonomyBody>(input.projectId, 'taxonomy');
    const known: Known = {
      items: new Set(items.map((i) => i.id)),
      assets: assetIds,
      terms: new Map(taxonomies.map((t) => [t.id, termIds(t.body.terms)])),
    };
    const languages = new Map((await tx.model.list<LanguageBody>(input.projectId, 'language')).map((l) => [l.id, l]));
    const itemsById = new Map(items.map((i) => [i.id, i]));
    const variantIssues: VariantIssue[] = [];
    for (const v of variants) {
      const type = await lookups.type({ id: v.typeId });
      const issues = variantElementIssues(type?.elements ?? [], v.elements, known);
      const item = itemsById.get(v.itemId);
      const language = languages.get(v.languageId);
      if (issues.length === 0 || !item) continue;
      variantIssues.push({
        item: { id: item.id, name: item.name, codename: item.codename },
        language: {
          id: v.languageId,
          name: language?.body.name ?? v.languageId,
          codename: language?.codename ?? v.languageId,
        },
        issues,
      });
    }
    return { variantIssues, typeIssues: await typeIssues(tx, input.projectId) };
  });
}
