import type { ModelRecord } from '../../domain/model-record.ts';
import { isAbsent, readExternalId, readName } from '../collections/model-fields.ts';
import {
  at,
  checkCodename,
  generateCodename,
  idFromExternalId,
  isRecord,
  type Problems,
  type Reference,
} from '../shared/index.ts';

/** A stored taxonomy term, in wire form; `external_id` only when set. */
export interface TaxonomyTermBody {
  id: string;
  name: string;
  codename: string;
  external_id?: string;
  terms: TaxonomyTermBody[];
}

/** Stored body of a taxonomy group (reference §2.6): its name and term tree, in request order. */
export interface TaxonomyBody {
  name: string;
  terms: TaxonomyTermBody[];
}

export type TaxonomyRecord = ModelRecord<TaxonomyBody>;

/** Kind name that scopes deterministic term ids, so they never collide with other objects' ids. */
export const termKind = 'taxonomy_term';
/** Term codenames may be longer than other codenames (reference §1.4). */
export const termCodenameMax = 200;
export const taxonomyNameMax = 200;

/** A taxonomy term as the Management API answers it (management-sdk-js `fake-get-taxonomy.json`). */
export type TaxonomyTermJson = {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  /** Only when set. */
  readonly external_id?: string;
  readonly terms: TaxonomyTermJson[];
};

function termJson(t: TaxonomyTermBody): TaxonomyTermJson {
  return {
    id: t.id,
    name: t.name,
    codename: t.codename,
    ...(t.external_id === undefined ? {} : { external_id: t.external_id }),
    terms: t.terms.map(termJson),
  };
}

/** The Management API form of a taxonomy group; leaf terms carry `"terms": []`. */
export function taxonomyJson(r: TaxonomyRecord) {
  return {
    id: r.id,
    name: r.body.name,
    codename: r.codename,
    ...(r.externalId === null ? {} : { external_id: r.externalId }),
    last_modified: r.lastModified.toISOString(),
    terms: r.body.terms.map(termJson),
  };
}

export interface TermContext {
  readonly projectId: string;
  readonly newId: () => string;
}

/**
 * Reads request terms (recursively). Ids in the body are read-only and ignored; a term with an
 * external id gets the id derived from it. Terms without a codename get '' here and one generated
 * by `fillCodenames` once the whole tree is known. Nested `terms` may be omitted (leaf).
 */
export function parseTerms(value: unknown, path: string, problems: Problems, ctx: TermContext): TaxonomyTermBody[] {
  if (!Array.isArray(value)) {
    problems.add(path, 'No terms were provided, provide at least an empty collection of terms.');
    return [];
  }
  return value.flatMap((item, i) => {
    const term = parseTerm(item, at(path, i), problems, ctx);
    return term ? [term] : [];
  });
}

export function parseTerm(value: unknown, path: string, problems: Problems, ctx: TermContext): TaxonomyTermBody | null {
  if (!isRecord(value)) {
    problems.add(path, 'A taxonomy term must be an object with a name.');
    return null;
  }
  const name = readName(value['name'], at(path, 'name'), problems, taxonomyNameMax);
  const codename = isAbsent(value['codename'])
    ? ''
    : checkCodename(value['codename'], at(path, 'codename'), problems, termCodenameMax)
      ? value['codename']
      : null;
  const externalId = readExternalId(value['external_id'], at(path, 'external_id'), problems);
  const terms =
    value['terms'] === undefined || value['terms'] === null
      ? []
      : parseTerms(value['terms'], at(path, 'terms'), problems, ctx);
  if (name === null || codename === null || externalId === null) return null;
  return {
    id:
      externalId === undefined
        ? ctx.newId()
        : idFromExternalId({ projectId: ctx.projectId, kind: termKind, externalId }),
    name,
    codename,
    ...(externalId === undefined ? {} : { external_id: externalId }),
    terms,
  };
}

/** Every term of a tree, depth first in order. */
export function allTerms(terms: readonly TaxonomyTermBody[]): TaxonomyTermBody[] {
  return terms.flatMap((t) => [t, ...allTerms(t.terms)]);
}

/** Generates codenames for terms that have none ('' from `parseTerms`), avoiding every codename in `tree`. */
export function fillCodenames(tree: readonly TaxonomyTermBody[]): void {
  const terms = allTerms(tree);
  const taken = new Set(terms.map((t) => t.codename).filter((c) => c !== ''));
  for (const term of terms) {
    if (term.codename !== '') continue;
    term.codename = generateCodename({ name: term.name, id: term.id, isTaken: (c) => taken.has(c) });
    taken.add(term.codename);
  }
}

/**
 * Problems of a whole tree: codenames unique within the group, ids (so external ids) unique, and
 * no id used by a term of another group (`foreignIds`). `report` gets the offending term's path.
 */
export function checkTerms(options: {
  terms: readonly TaxonomyTermBody[];
  foreignIds: ReadonlySet<string>;
  problems: Problems;
  report: (message: string, termPath: string) => void;
}): void {
  const codenames = new Set<string>();
  const ids = new Set<string>();
  const visit = (terms: readonly TaxonomyTermBody[], path: string): void => {
    for (const [i, t] of terms.entries()) {
      const p = at(path, i);
      if (codenames.has(t.codename))
        options.report(
          `The codename '${t.codename}' is already used by another term of this group.`,
          at(p, 'codename'),
        );
      if (ids.has(t.id) || options.foreignIds.has(t.id))
        options.report(
          t.external_id === undefined
            ? `The term id '${t.id}' is already used.`
            : `The external id '${t.external_id}' is already used by another taxonomy term.`,
          at(p, t.external_id === undefined ? 'id' : 'external_id'),
        );
      codenames.add(t.codename);
      ids.add(t.id);
      visit(t.terms, at(p, 'terms'));
    }
  };
  visit(options.terms, 'terms');
}

/** Where a term sits: the array holding it and its index there. */
export interface TermLocation {
  readonly term: TaxonomyTermBody;
  readonly siblings: TaxonomyTermBody[];
  readonly index: number;
}

function matches(term: TaxonomyTermBody, ref: Reference): boolean {
  if ('id' in ref) return term.id === ref.id;
  if ('codename' in ref) return term.codename === ref.codename;
  return term.external_id === ref.external_id;
}

/** Finds a term anywhere in the tree by reference. */
export function findTerm(terms: TaxonomyTermBody[], ref: Reference): TermLocation | null {
  for (const [index, term] of terms.entries()) {
    if (matches(term, ref)) return { term, siblings: terms, index };
    const inner = findTerm(term.terms, ref);
    if (inner) return inner;
  }
  return null;
}
