import type { RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { assertMayChange, Problems, type ModelInput } from '../shared/index.ts';
import type { VariantRecord } from '../../content/variants/variant-record.ts';
import { requireDefinition, type DefinitionBody, type DefinitionKind } from './definitions.ts';
import { IdAssigner } from './ids.ts';
import { ModelLookups } from './lookups.ts';
import type { ElementBody } from './model.ts';
import { applyOperation, type Draft } from './patch.ts';
import { parseOperations } from './patch-parse.ts';
import { breakingChecks, type VariantCheck } from './impact-checks.ts';

/*
 * What a proposed change of a content type or snippet would break in existing content (the
 * editor's confirmation before saving, issue 32): the PATCH operations are applied to a copy
 * exactly as `modifyDefinition` applies them (nothing is saved), the elements before and after
 * are compared, and the latest version of every variant of the affected types is tested against
 * each breaking change. Bounded: at most `maxVariants` variants are read (pages of 500, the
 * event loop free between pages); `is_complete` says whether every variant was seen.
 */

export const impactMaxVariants = 5_000;
const pageSize = 500;
const sampleSize = 10;

export interface ImpactChangeJson {
  readonly kind: VariantCheck['kind'];
  readonly element: { readonly id: string; readonly codename: string; readonly name: string };
  readonly message: string;
  readonly item_count: number;
  readonly variant_count: number;
  /** The first affected items (at most 10). */
  readonly items: readonly { readonly id: string; readonly codename: string; readonly name: string }[];
}

export interface ImpactJson {
  readonly variants_checked: number;
  readonly is_complete: boolean;
  readonly affected: { readonly item_count: number; readonly variant_count: number };
  readonly changes: readonly ImpactChangeJson[];
}

/** The elements of the definition after the operations (the operations' own problems throw, as PATCH does). */
async function elementsAfter(
  deps: CoreDeps,
  tx: UnitOfWork,
  input: ModelInput & { key: RecordKey; operations: unknown },
  spec: DefinitionKind,
): Promise<{ id: string; before: ElementBody[]; after: ElementBody[] }> {
  const parsed = new Problems();
  const ops = parseOperations(input.operations, parsed);
  parsed.throwIfAny();
  const current = await requireDefinition<DefinitionBody>(tx, { projectId: input.projectId, spec, key: input.key });
  const draft: Draft = {
    name: current.body.name,
    codename: current.codename,
    content_groups:
      'content_groups' in current.body
        ? (structuredClone(current.body.content_groups) as unknown as Record<string, unknown>[])
        : null,
    elements: structuredClone(current.body.elements),
  };
  const ids = new IdAssigner({ projectId: input.projectId, containerId: current.id, uuid: () => deps.ids.uuid() });
  const lookups = new ModelLookups(tx, { ...current, kind: spec.kind });
  const problems = new Problems();
  for (const op of ops) await applyOperation(op, { draft, ids, lookups, touched: new Map() }, problems);
  problems.throwIfAny();
  return { id: current.id, before: current.body.elements, after: draft.elements as unknown as ElementBody[] };
}

/** The types whose items hold the definition's elements: the type itself, or the types that use the snippet. */
async function affectedTypeIds(tx: UnitOfWork, projectId: string, spec: DefinitionKind, id: string): Promise<string[]> {
  if (spec.kind === 'content_type') return [id];
  const types = await tx.model.list<{ elements: ElementBody[] }>(projectId, 'content_type');
  return types
    .filter((t) => t.body.elements.some((e) => e.type === 'snippet' && (e['snippet'] as { id?: string })?.id === id))
    .map((t) => t.id);
}

/** POST /app/api/projects/{id}/types|snippets/{key}/impact: what the operations would break. */
async function definitionChangeImpact(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; operations: unknown },
  spec: DefinitionKind,
): Promise<ImpactJson> {
  assertMayChange(input.actor, input.projectId, 'manage_model');
  return deps.store.transaction(async (tx) => {
    const { id, before, after } = await elementsAfter(deps, tx, input, spec);
    const checks = breakingChecks(before, after);
    const found = checks.map(() => ({ variants: 0, items: new Set<string>() }));
    const allItems = new Set<string>();
    let variantCount = 0;
    let checked = 0;
    let isComplete = true;
    if (checks.length > 0) {
      const linked = async (ids: readonly string[]) =>
        new Map((await tx.items.findMany(input.projectId, ids)).map((i) => [i.id, i.typeId] as const));
      for (const typeId of await affectedTypeIds(tx, input.projectId, spec, id)) {
        let after: Awaited<ReturnType<typeof tx.variants.pageByType>>['next'] = null;
        do {
          if (checked >= impactMaxVariants) {
            isComplete = false;
            break;
          }
          const page = await tx.variants.pageByType(input.projectId, typeId, { after, limit: pageSize });
          const typesOfLinked = await linked(linkedIds(page.rows, checks));
          for (const variant of page.rows) {
            checked++;
            let isHit = false;
            for (const [i, check] of checks.entries()) {
              if (!check.breaks(variant.elements, typesOfLinked)) continue;
              isHit = true;
              (found[i] as { variants: number }).variants++;
              found[i]?.items.add(variant.itemId);
            }
            if (isHit) {
              variantCount++;
              allItems.add(variant.itemId);
            }
          }
          after = page.next;
        } while (after !== null);
      }
    }
    const sampleIds = [...new Set(found.flatMap((f) => [...f.items].slice(0, sampleSize)))];
    const items = new Map((await tx.items.findMany(input.projectId, sampleIds)).map((i) => [i.id, i] as const));
    const changes = checks.flatMap((check, i): ImpactChangeJson[] => {
      const hit = found[i] as { variants: number; items: Set<string> };
      if (hit.variants === 0) return [];
      return [
        {
          kind: check.kind,
          element: check.element,
          message: check.message,
          item_count: hit.items.size,
          variant_count: hit.variants,
          items: [...hit.items].slice(0, sampleSize).flatMap((itemId) => {
            const item = items.get(itemId);
            return item ? [{ id: item.id, codename: item.codename, name: item.name }] : [];
          }),
        },
      ];
    });
    return {
      variants_checked: checked,
      is_complete: isComplete,
      affected: { item_count: allItems.size, variant_count: variantCount },
      changes,
    };
  });
}

/** The linked item ids the checks of allowed types need to know the types of. */
function linkedIds(variants: readonly VariantRecord[], checks: readonly VariantCheck[]): string[] {
  const ids = new Set<string>();
  for (const check of checks)
    if (check.linkedOf) for (const v of variants) for (const linkedId of check.linkedOf(v.elements)) ids.add(linkedId);
  return [...ids];
}

type ImpactInput = ModelInput & { key: RecordKey; operations: unknown };

/** What the PATCH operations would break in the items of the content type. */
export const contentTypeChangeImpact = (deps: CoreDeps, input: ImpactInput): Promise<ImpactJson> =>
  definitionChangeImpact(deps, input, {
    kind: 'content_type',
    label: 'content type',
    notFound: 'CONTENT_TYPE_NOT_FOUND',
  });

/** What the PATCH operations would break in the items of the types that use the snippet. */
export const snippetChangeImpact = (deps: CoreDeps, input: ImpactInput): Promise<ImpactJson> =>
  definitionChangeImpact(deps, input, {
    kind: 'snippet',
    label: 'content type snippet',
    notFound: 'SNIPPET_NOT_FOUND',
  });
