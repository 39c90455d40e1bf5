import type { TypeLinks } from '@lectern/core';
import { camelName, NameScope, pascalName, reservedTypeNames, type NamingProblem } from './naming.ts';

/** Element kinds as the Delivery API names them (subpages are `modular_content`). */
export const elementKinds = [
  'text',
  'rich_text',
  'number',
  'multiple_choice',
  'date_time',
  'asset',
  'modular_content',
  'taxonomy',
  'url_slug',
  'custom',
] as const;
export type ElementKind = (typeof elementKinds)[number];

export interface ModelElement {
  /** The element's key in Delivery JSON (`seo__meta_title` for a snippet element). */
  readonly key: string;
  readonly kind: ElementKind;
  /** Its GraphQL field name (`metaTitle`). */
  readonly fieldName: string;
  /** Linked items, subpages or rich text limited to some content types (restricted-sdl.ts). */
  readonly restriction?: Restriction;
}

/**
 * The content types a linked items or rich text element allows, as today's Kontent.ai schema shows
 * them: `<Owner>_<Element>` names the element's own types (its collection, union or rich text type).
 */
export interface Restriction {
  /** `LandingPage_FeaturedContent`: the owner's type name and the element's PascalCase codename. */
  readonly name: string;
  /** The allowed types' GraphQL names, in the element's order (only types the schema has). */
  readonly typeNames: readonly string[];
}

export interface ModelSnippet {
  readonly codename: string;
  /** `_seo`: the field of every type that uses it. */
  readonly fieldName: string;
  /** `_Seo`: the object type holding its elements. */
  readonly typeName: string;
  readonly elements: readonly ModelElement[];
}

export interface ModelType {
  readonly codename: string;
  readonly typeName: string;
  /** The root field of one item; `<rootField>_All` is the collection. */
  readonly rootField: string;
  readonly elements: readonly ModelElement[];
  readonly snippets: readonly ModelSnippet[];
}

/** A project's content model as the schema shows it, or the naming problems that prevent one. */
export interface GraphqlModel {
  readonly types: readonly ModelType[];
  readonly snippets: readonly ModelSnippet[];
  readonly problems: readonly NamingProblem[];
}

/** Names of the predefined types: no content type or snippet may take them. */
export const predefinedTypeNames = [
  '_Item',
  '_Sys',
  '_Language',
  '_LanguageSys',
  '_ContentType',
  '_ContentTypeSys',
  '_Collection',
  '_CollectionSys',
  '_Workflow',
  '_WorkflowSys',
  '_WorkflowStep',
  '_WorkflowStepSys',
  '_ItemCollection',
  '_AssetInterface',
  '_Asset',
  '_AssetCollection',
  '_Rendition',
  '_AssetRenditionCollection',
  '_RichTextAsset',
  '_RichTextAssetCollection',
  '_RichText',
  '_DateAndTime',
  '_MultipleChoiceOption',
  '_MultipleChoiceOptionSys',
  '_MultipleChoiceOptionCollection',
  '_TaxonomyTerm',
  '_TaxonomyTermSys',
  '_TaxonomyTermCollection',
  '_CustomElement',
  '_OrderEnum',
  '_LanguageFilter',
  '_TextFilter',
  '_NumberFilter',
  '_DateTimeFilter',
  '_DateAndTimeElementFilter',
  '_DateAndTimeElementOrder',
  '_ArrayFilter',
  '_IdFilter',
  '_CodenameFilter',
  '_SystemLanguageSystemFilter',
  '_SystemLanguageFilter',
  '_SystemFilter',
  '_SystemOrder',
  '_RootQuery',
] as const;

interface DeliveryTypeJson {
  readonly system?: { readonly codename?: unknown };
  readonly elements?: Readonly<Record<string, { readonly type?: unknown }>>;
}

const isKind = (value: unknown): value is ElementKind =>
  typeof value === 'string' && (elementKinds as readonly string[]).includes(value);

/**
 * Reads the project's content types (Delivery JSON, snippet elements flattened as
 * `<snippet>__<element>`) into the names the schema uses, with every collision and reserved name
 * found (SPEC 2.8). Elements of unknown kinds are left out.
 */
export function readGraphqlModel(typesJson: readonly Record<string, unknown>[], links: TypeLinks = {}): GraphqlModel {
  const problems: NamingProblem[] = [];
  const typeNames = new NameScope({ what: 'type', problems });
  for (const name of predefinedTypeNames) typeNames.claim(name, `predefined type '${name}'`);
  for (const name of reservedTypeNames) typeNames.claim(name, `built-in type '${name}'`);
  const snippets = new Map<string, { codename: string; elements: Map<string, ModelElement> }>();
  const types: { codename: string; own: ModelElement[]; snippetCodenames: string[] }[] = [];

  for (const json of typesJson as readonly DeliveryTypeJson[]) {
    const codename = json.system?.codename;
    if (typeof codename !== 'string') continue;
    const own: ModelElement[] = [];
    const used: string[] = [];
    for (const [key, element] of Object.entries(json.elements ?? {})) {
      if (!isKind(element.type)) continue;
      const split = key.indexOf('__');
      if (split <= 0) {
        own.push({ key, kind: element.type, fieldName: camelName(key) });
        continue;
      }
      const snippetCodename = key.slice(0, split);
      let snippet = snippets.get(snippetCodename);
      if (snippet === undefined) {
        snippet = { codename: snippetCodename, elements: new Map() };
        snippets.set(snippetCodename, snippet);
      }
      if (!used.includes(snippetCodename)) used.push(snippetCodename);
      snippet.elements.set(key, { key, kind: element.type, fieldName: camelName(key.slice(split + 2)) });
    }
    types.push({ codename, own, snippetCodenames: used });
  }

  const modelSnippets = new Map<string, ModelSnippet>();
  for (const s of snippets.values()) {
    const typeName = `_${pascalName(s.codename)}`;
    typeNames.claim(typeName, `content type snippet '${s.codename}'`);
    const fields = new NameScope({ what: `field (of snippet '${s.codename}')`, problems });
    const elements = [...s.elements.values()].filter((e) => claimElement(fields, e, `element '${e.key}'`));
    modelSnippets.set(s.codename, { codename: s.codename, fieldName: `_${camelName(s.codename)}`, typeName, elements });
  }

  const modelTypes = types.map((t): ModelType => {
    const typeName = pascalName(t.codename);
    const owner = `content type '${t.codename}'`;
    if (reservedTypeNames.has(typeName)) {
      problems.push({
        message: `The ${owner} gives the reserved GraphQL name '${typeName}' (SPEC 2.8 reserves Array, Boolean, DateTime, Float, Guid, Int, String); rename its codename.`,
      });
    } else typeNames.claim(typeName, owner);
    const fields = new NameScope({ what: `field (of content type '${t.codename}')`, problems });
    fields.claim('_system_', 'system field');
    const elements = t.own.filter((e) => claimElement(fields, e, `element '${e.key}'`));
    const typeSnippets = t.snippetCodenames.flatMap((c) => {
      const snippet = modelSnippets.get(c);
      return snippet !== undefined && fields.claim(snippet.fieldName, `snippet '${c}'`) ? [snippet] : [];
    });
    return { codename: t.codename, typeName, rootField: camelName(t.codename), elements, snippets: typeSnippets };
  });
  return restricted({ types: modelTypes, snippets: [...modelSnippets.values()], problems }, links, typeNames);
}

/**
 * Gives each restricted element its restriction (types indexed before `TypeLinks` was recorded,
 * or whose allowed types all left the schema, keep the generic `_ItemCollection` / `_RichText`).
 * A snippet's element takes the list of the first type that uses it: every type shares its definition.
 */
function restricted(model: GraphqlModel, links: TypeLinks, typeNames: NameScope): GraphqlModel {
  const nameOf = new Map(model.types.map((t) => [t.codename, t.typeName]));
  const allowedOf = new Map<string, readonly string[]>();
  for (const t of model.types) {
    for (const [key, codenames] of Object.entries(links[t.codename] ?? {})) {
      if (key.indexOf('__') <= 0) allowedOf.set(`${t.codename}\u0000${key}`, codenames);
      else if (!allowedOf.has(key)) allowedOf.set(key, codenames);
    }
  }
  const withRestriction = (owner: string, e: ModelElement, allowed: readonly string[] | undefined): ModelElement => {
    if (allowed === undefined || (e.kind !== 'modular_content' && e.kind !== 'rich_text')) return e;
    const names = [...new Set(allowed.flatMap((c) => nameOf.get(c) ?? []))];
    if (names.length === 0) return e;
    const split = e.key.indexOf('__');
    const name = `${owner}_${pascalName(split > 0 ? e.key.slice(split + 2) : e.key)}`;
    if (!typeNames.claim(name, `element '${e.key}' (its types)`)) return e;
    return { ...e, restriction: { name, typeNames: names } };
  };
  const snippets = new Map(
    model.snippets.map((s) => [
      s.codename,
      { ...s, elements: s.elements.map((e) => withRestriction(s.typeName, e, allowedOf.get(e.key))) },
    ]),
  );
  const types = model.types.map((t) => ({
    ...t,
    elements: t.elements.map((e) => withRestriction(t.typeName, e, allowedOf.get(`${t.codename}\u0000${e.key}`))),
    snippets: t.snippets.map((s) => snippets.get(s.codename) ?? s),
  }));
  return { types, snippets: [...snippets.values()], problems: model.problems };
}

/** A date and time element also claims `<name>_with_timezone`. */
function claimElement(scope: NameScope, element: ModelElement, owner: string): boolean {
  if (!scope.claim(element.fieldName, owner)) return false;
  return element.kind !== 'date_time' || scope.claim(`${element.fieldName}_with_timezone`, owner);
}
