import type { UnitOfWork } from '../../ports/store.ts';
import type { ModelRecord } from '../../domain/model-record.ts';
import type { ContentTypeBody, ElementBody, SnippetBody } from '../../model/content-types/model.ts';
import type { LanguageBody } from '../../model/languages.ts';
import type { CollectionBody } from '../../model/collections/collections.ts';
import type { TaxonomyBody, TaxonomyTermBody } from '../../model/taxonomies/taxonomy-terms.ts';
import type { WorkflowBody } from '../../model/workflows/workflow-body.ts';
import { systemStepIds, zeroId } from '../../model/defaults.ts';
import type { IndexedLanguage, TypeLinks } from '../index-port.ts';
import type { IndexedModel } from './writer-port.ts';
import { deliveryTime } from './times.ts';

/** One element of a type as Delivery shows it: snippet elements flattened as `<snippet>__<element>`. */
export interface FlatElement {
  readonly key: string;
  readonly def: ElementBody;
}

export interface LanguageView {
  readonly id: string;
  readonly codename: string;
  readonly name: string;
}

/** The content model of a project, read once per batch, with the lookups rendering needs. */
export class ModelView {
  readonly languages: LanguageView[];
  private readonly languageRecords: ModelRecord<LanguageBody>[];
  private readonly types = new Map<string, ModelRecord<ContentTypeBody>>();
  private readonly snippets = new Map<string, ModelRecord<SnippetBody>>();
  private readonly taxonomies = new Map<string, ModelRecord<TaxonomyBody>>();
  private readonly terms = new Map<string, { name: string; codename: string }>();
  private readonly collections = new Map<string, string>();
  private readonly workflows = new Map<string, ModelRecord<WorkflowBody>>();
  private readonly flat = new Map<string, FlatElement[]>();

  private constructor(records: {
    languages: ModelRecord<LanguageBody>[];
    types: ModelRecord<ContentTypeBody>[];
    snippets: ModelRecord<SnippetBody>[];
    taxonomies: ModelRecord<TaxonomyBody>[];
    collections: ModelRecord<CollectionBody>[];
    workflows: ModelRecord<WorkflowBody>[];
  }) {
    const active = records.languages.filter((l) => l.body.is_active);
    this.languageRecords = [...active.filter((l) => l.id === zeroId), ...active.filter((l) => l.id !== zeroId)];
    this.languages = this.languageRecords.map((l) => ({ id: l.id, codename: l.codename, name: l.body.name }));
    for (const t of records.types) this.types.set(t.id, t);
    for (const s of records.snippets) this.snippets.set(s.id, s);
    for (const g of records.taxonomies) {
      this.taxonomies.set(g.id, g);
      const walk = (terms: readonly TaxonomyTermBody[]) => {
        for (const t of terms) {
          this.terms.set(t.id, { name: t.name, codename: t.codename });
          walk(t.terms);
        }
      };
      walk(g.body.terms);
    }
    for (const c of records.collections) this.collections.set(c.id, c.codename);
    for (const w of records.workflows) this.workflows.set(w.id, w);
  }

  static async load(tx: UnitOfWork, projectId: string): Promise<ModelView> {
    const [languages, types, snippets, taxonomies, collections, workflows] = await Promise.all([
      tx.model.list<LanguageBody>(projectId, 'language'),
      tx.model.list<ContentTypeBody>(projectId, 'content_type'),
      tx.model.list<SnippetBody>(projectId, 'snippet'),
      tx.model.list<TaxonomyBody>(projectId, 'taxonomy'),
      tx.model.list<CollectionBody>(projectId, 'collection'),
      tx.model.list<WorkflowBody>(projectId, 'workflow'),
    ]);
    return new ModelView({ languages, types, snippets, taxonomies, collections, workflows });
  }

  language(id: string): LanguageView | undefined {
    return this.languages.find((l) => l.id === id);
  }

  type(id: string): ModelRecord<ContentTypeBody> | undefined {
    return this.types.get(id);
  }

  /** The type's value elements in Delivery order and naming (no guidelines). */
  elementsOf(typeId: string): FlatElement[] {
    const cached = this.flat.get(typeId);
    if (cached) return cached;
    const out: FlatElement[] = [];
    for (const def of this.types.get(typeId)?.body.elements ?? []) {
      if (def.type === 'guidelines') continue;
      if (def.type !== 'snippet') {
        out.push({ key: def.codename, def });
        continue;
      }
      const snippet = this.snippets.get((def['snippet'] as { id: string } | undefined)?.id ?? '');
      if (!snippet) continue;
      // Snippet element codenames are stored with the `<snippet>__` prefix (SPEC 2.6 rule 5).
      const prefix = `${snippet.codename}__`;
      for (const inner of snippet.body.elements)
        if (inner.type !== 'guidelines')
          out.push({ key: inner.codename.startsWith(prefix) ? inner.codename : prefix + inner.codename, def: inner });
    }
    this.flat.set(typeId, out);
    return out;
  }

  term(id: string): { name: string; codename: string } | undefined {
    return this.terms.get(id);
  }

  taxonomyCodename(id: string): string | null {
    return this.taxonomies.get(id)?.codename ?? null;
  }

  collectionCodename(id: string): string {
    return this.collections.get(id) ?? 'default';
  }

  workflowCodename(id: string): string {
    return this.workflows.get(id)?.codename ?? 'default';
  }

  stepCodename(workflowId: string, stepId: string): string {
    if (stepId === systemStepIds.published) return 'published';
    if (stepId === systemStepIds.scheduled) return 'scheduled';
    if (stepId === systemStepIds.archived) return 'archived';
    return this.workflows.get(workflowId)?.body.steps.find((s) => s.id === stepId)?.codename ?? 'draft';
  }

  /** Types, taxonomies and languages in Delivery JSON. */
  indexedModel(): IndexedModel {
    const byCodename = (a: { system: { codename: string } }, b: { system: { codename: string } }) =>
      a.system.codename < b.system.codename ? -1 : a.system.codename > b.system.codename ? 1 : 0;
    const types = [...this.types.values()]
      .map((t) => ({
        system: { id: t.id, name: t.body.name, codename: t.codename, last_modified: deliveryTime(t.lastModified) },
        elements: Object.fromEntries(this.elementsOf(t.id).map((e) => [e.key, this.typeElement(e.def)])),
      }))
      .sort(byCodename);
    const termJson = (t: TaxonomyTermBody): Record<string, unknown> => ({
      name: t.name,
      codename: t.codename,
      terms: t.terms.map(termJson),
    });
    const taxonomies = [...this.taxonomies.values()]
      .map((g) => ({
        system: { id: g.id, name: g.body.name, codename: g.codename, last_modified: deliveryTime(g.lastModified) },
        terms: g.body.terms.map(termJson),
      }))
      .sort(byCodename);
    const languages: IndexedLanguage[] = this.languageRecords.map((l) => {
      const fallback = this.languageRecords.find((f) => f.id === l.body.fallback_language.id);
      return {
        system: { id: l.id, name: l.body.name, codename: l.codename },
        fallbackCodename: l.id === zeroId || !fallback || fallback.id === l.id ? null : fallback.codename,
        isDefault: l.id === zeroId,
      };
    });
    return { types, taxonomies, languages, typeLinks: this.typeLinks() };
  }

  /**
   * The allowed content types (codenames, in the element's order) of each restricted linked
   * items, subpages or rich text element; ids of types that no longer exist are left out.
   */
  typeLinks(): TypeLinks {
    const out: Record<string, Record<string, string[]>> = {};
    for (const t of this.types.values()) {
      const links: Record<string, string[]> = {};
      for (const { key, def } of this.elementsOf(t.id)) {
        if (def.type !== 'modular_content' && def.type !== 'subpages' && def.type !== 'rich_text') continue;
        const ids = ((def['allowed_content_types'] ?? []) as { id: string }[]).map((r) => r.id);
        if (ids.length > 0) links[key] = ids.flatMap((id) => this.types.get(id)?.codename ?? []);
      }
      if (Object.keys(links).length > 0) out[t.codename] = links;
    }
    return out;
  }

  /** A type element in Delivery JSON (without `codename`, as inside a type). */
  typeElement(def: ElementBody): Record<string, unknown> {
    const out: Record<string, unknown> = { type: deliveryKind(def.type), name: elementName(def) };
    if (def.type === 'multiple_choice')
      out['options'] = ((def['options'] ?? []) as { name: string; codename: string }[]).map((o) => ({
        name: o.name,
        codename: o.codename,
      }));
    if (def.type === 'taxonomy') {
      const groupId = (def['taxonomy_group'] as { id: string } | null)?.id ?? '';
      out['taxonomy_group'] = this.taxonomyCodename(groupId);
    }
    return out;
  }
}

/** Subpages are linked items in the Delivery API. */
export function deliveryKind(type: string): string {
  return type === 'subpages' ? 'modular_content' : type;
}

export function elementName(def: ElementBody): string {
  return typeof def['name'] === 'string' ? def['name'] : def.codename;
}
