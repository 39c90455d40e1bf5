import type { ContentTypeBody } from '../../model/content-types/model.ts';
import { systemStepIds } from '../../model/defaults.ts';
import type { VariantFilter } from './filter-input.ts';
import type { ContentLookups, TypeShape } from './lookups.ts';
import type { CompletionRule, ElementCheck, VariantQuery } from './variant-query.ts';

/*
 * The resolved filter body turned into the store's query: sets into arrays, and the parts of the
 * content model the filter depends on into rules the store can evaluate in SQL (what makes a
 * variant complete per type, which elements hold a taxonomy group's terms). The model is small
 * (types, not items), so reading all of it costs the same at 100 or 100,000 items.
 */

const countLimits: Record<string, string> = {
  asset: 'asset_count_limit',
  modular_content: 'item_count_limit',
  subpages: 'item_count_limit',
  taxonomy: 'term_count_limit',
};

/** The checks of checkPublishable (workflow/required.ts) for one type, as data. */
function checksOf(shape: TypeShape): ElementCheck[] {
  const checks: ElementCheck[] = [];
  for (const def of shape.elements) {
    if (def['is_required'] === true)
      checks.push({ elementId: def.id, kind: 'required', isRichText: def.type === 'rich_text' });
    const limitName = countLimits[def.type];
    const limit = limitName ? (def[limitName] as { value: number; condition: string } | null | undefined) : null;
    if (!limit) continue;
    const max = limit.condition === 'at_most' || limit.condition === 'exactly' ? limit.value : null;
    const min = limit.condition === 'at_least' || limit.condition === 'exactly' ? limit.value : null;
    checks.push({ elementId: def.id, kind: 'count', min, max });
  }
  return checks;
}

async function typeShapes(lookups: ContentLookups): Promise<TypeShape[]> {
  const types = await lookups.tx.model.list<ContentTypeBody>(lookups.projectId, 'content_type');
  await lookups.preloadTypes(types.map((t) => t.id));
  const shapes = await Promise.all(types.map((t) => lookups.type({ id: t.id })));
  return shapes.filter((s): s is TypeShape => s !== null);
}

export async function buildVariantQuery(lookups: ContentLookups, f: VariantFilter): Promise<VariantQuery> {
  const needsRules =
    f.completion !== null &&
    (f.completion.has('ready') || f.completion.has('completed') || f.completion.has('unfinished'));
  const shapes = needsRules || f.taxonomies !== null ? await typeShapes(lookups) : [];
  const rules: CompletionRule[] = needsRules ? shapes.map((s) => ({ typeId: s.record.id, checks: checksOf(s) })) : [];
  const taxonomyElements = (groupId: string) =>
    shapes.flatMap((s) =>
      s.elements
        .filter((d) => d.type === 'taxonomy' && (d['taxonomy_group'] as { id?: string } | undefined)?.id === groupId)
        .map((d) => d.id),
    );
  const array = <T>(set: Set<T> | null) => (set === null ? null : [...set]);
  return {
    languageId: f.languageId,
    searchPhrase: f.searchPhrase,
    typeIds: array(f.typeIds),
    collectionIds: array(f.collectionIds),
    componentTypeIds: array(f.componentTypeIds),
    contributorIds: array(f.contributorIds),
    hasNoContributors: f.hasNoContributors,
    completion:
      f.completion === null
        ? null
        : {
            isNotTranslated: f.completion.has('not_translated'),
            isAllDone: f.completion.has('all_done'),
            isReady: f.completion.has('ready') || f.completion.has('completed'),
            isUnfinished: f.completion.has('unfinished'),
            rules,
            doneStepIds: [systemStepIds.published, systemStepIds.archived],
          },
    steps: f.steps === null ? null : f.steps.map((s) => ({ workflowId: s.workflowId, stepIds: [...s.stepIds] })),
    taxonomies:
      f.taxonomies === null
        ? null
        : f.taxonomies.map((t) => ({
            elementIds: taxonomyElements(t.groupId),
            termIds: [...t.elementTermIds],
            isUncategorizedIncluded: t.includeUncategorized,
          })),
    publishing: array(f.publishing),
    archivedStepId: systemStepIds.archived,
    order: f.order ?? { by: 'position', direction: 'asc' },
  };
}
