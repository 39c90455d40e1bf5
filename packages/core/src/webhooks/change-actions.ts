import type { AssetRecord } from '../content/assets/asset-record.ts';
import type { TaxonomyAction, WebhookAction } from './webhook-vocabulary.ts';

/*
 * Which webhook actions a change of an object stands for, where one write may stand for several
 * (Kontent.ai's webhooks reference, "Webhook triggers and events" of Learn's webhooks page). The
 * write puts them in its change event's payload as `webhook_actions`; the webhooks service reads
 * them there (the event has no before and after to compare).
 */

/** The payload field naming the actions. */
export const webhookActionsField = 'webhook_actions';

/** What of a taxonomy group a change is judged on: its name, codename and term tree. */
export interface TaxonomyShape {
  readonly name: string;
  readonly codename: string;
  readonly terms: readonly TaxonomyTermShape[];
}
interface TaxonomyTermShape {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly terms: readonly TaxonomyTermShape[];
}

interface Placed {
  readonly term: TaxonomyTermShape;
  readonly parentId: string | null;
}

function placed(terms: readonly TaxonomyTermShape[], parentId: string | null, into = new Map<string, Placed>()) {
  for (const term of terms) {
    into.set(term.id, { term, parentId });
    placed(term.terms, term.id, into);
  }
  return into;
}

/** The terms kept by both versions as one version nests and orders them (`id(children…)`). */
function keptOrder(terms: readonly TaxonomyTermShape[], kept: ReadonlySet<string>): string {
  // A term not kept has no kept descendant in place: a kept one under it has a new parent.
  return terms
    .filter((t) => kept.has(t.id))
    .map((t) => `${t.id}(${keptOrder(t.terms, kept)})`)
    .join(',');
}

/**
 * The webhook actions a change of a taxonomy group stands for (Kontent.ai's webhooks reference,
 * "Taxonomy events": group renamed or codename changed → `metadata_changed`; a term created,
 * renamed or given a new codename, deleted → `term_created`, `term_changed`, `term_deleted`; terms
 * reordered or moved under another parent → `terms_moved`). One PATCH may stand for several; each
 * action is listed once, in the reference's order. A term counts as moved when its parent changed
 * or the order of the terms both versions hold changed (adding or deleting a term moves none).
 */
export function taxonomyActions(before: TaxonomyShape, after: TaxonomyShape): TaxonomyAction[] {
  const old = placed(before.terms, null);
  const now = placed(after.terms, null);
  const kept = new Set([...now.keys()].filter((id) => old.has(id)));
  const isChanged = [...kept].some((id) => {
    const a = old.get(id)?.term;
    const b = now.get(id)?.term;
    return a?.name !== b?.name || a?.codename !== b?.codename;
  });
  const isMoved =
    [...kept].some((id) => old.get(id)?.parentId !== now.get(id)?.parentId) ||
    keptOrder(before.terms, kept) !== keptOrder(after.terms, kept);
  const found: Record<Exclude<TaxonomyAction, 'created' | 'deleted'>, boolean> = {
    metadata_changed: before.name !== after.name || before.codename !== after.codename,
    term_created: [...now.keys()].some((id) => !old.has(id)),
    term_changed: isChanged,
    term_deleted: [...old.keys()].some((id) => !now.has(id)),
    terms_moved: isMoved,
  };
  return (Object.keys(found) as (keyof typeof found)[]).filter((action) => found[action]);
}

/** What of a language a change is judged on. */
export interface LanguageShape {
  readonly codename: string;
  readonly body: {
    readonly name: string;
    readonly is_active: boolean;
    readonly fallback_language: { readonly id: string };
  };
}

/**
 * Language events: activating → `created`, deactivating → `deleted`, renaming, a new codename or
 * fallback → `changed` (a change of nothing is `changed`, as any update was before).
 */
export function languageActions(before: LanguageShape, after: LanguageShape): WebhookAction<'language'>[] {
  const a = before.body;
  const b = after.body;
  const isChanged =
    a.name !== b.name || before.codename !== after.codename || a.fallback_language.id !== b.fallback_language.id;
  const found: Record<WebhookAction<'language'>, boolean> = {
    created: !a.is_active && b.is_active,
    changed: isChanged,
    deleted: a.is_active && !b.is_active,
  };
  const actions = (Object.keys(found) as WebhookAction<'language'>[]).filter((action) => found[action]);
  return actions.length === 0 ? ['changed'] : actions;
}

/** What of an asset a change is judged on. */
export type AssetShape = Pick<
  AssetRecord,
  'fileId' | 'codename' | 'title' | 'folderId' | 'collectionId' | 'descriptions' | 'elements'
>;

/**
 * Asset events: the binary file replaced → `changed`; codename, title, descriptions, collection,
 * folder or elements → `metadata_changed` (also a change of nothing, as any update was before).
 */
export function assetActions(before: AssetShape, after: AssetShape): WebhookAction<'asset'>[] {
  const meta = (a: AssetShape) =>
    JSON.stringify([a.codename, a.title, a.folderId, a.collectionId, a.descriptions, a.elements]);
  const isFileReplaced = before.fileId !== after.fileId;
  if (!isFileReplaced) return ['metadata_changed'];
  return meta(before) === meta(after) ? ['changed'] : ['changed', 'metadata_changed'];
}
