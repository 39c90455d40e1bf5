import { assertNever, filterOperators, type FilterOperator, type ItemFilter, type ItemOrder } from '@lectern/core';
import { invalidQuery } from '@lectern/read-path';
import { splitRawQuery } from './raw-query.ts';

export type StandardParam =
  'language' | 'elements' | 'excludeElements' | 'order' | 'depth' | 'skip' | 'limit' | 'includeTotalCount';

/** What one endpoint accepts: its standard parameters and which properties it filters on. */
export interface QueryProfile {
  readonly params: readonly StandardParam[];
  /** Filterable `system.*` properties; empty: no system filters. */
  readonly systemFilters: readonly string[];
  readonly isElementFilterAllowed: boolean;
  /** Properties `order` accepts (`system.*`); element ordering follows `isElementFilterAllowed`. */
  readonly systemOrder: readonly string[];
}

/** A query string checked against its endpoint, with defaults filled in (SPEC 4.3). */
export interface ParsedQuery {
  readonly language: string | null;
  /** Projection: element codenames to keep (null: all). */
  readonly elements: readonly string[] | null;
  readonly excludeElements: readonly string[] | null;
  readonly order: ItemOrder | null;
  /** Levels of linked items in `modular_content`; 1 unless given. */
  readonly depth: number;
  readonly skip: number;
  /** Null when absent or 0 (the API echoes `limit: 0` for "no limit"). */
  readonly limit: number | null;
  readonly isTotalCountIncluded: boolean;
  readonly filters: readonly ItemFilter[];
}

export const itemSystemProperties = [
  'id',
  'name',
  'codename',
  'language',
  'type',
  'collection',
  'last_modified',
  'workflow',
  'workflow_step',
] as const;

/** Array operators work only on array values (SPEC 4.3 rule 5). */
export const arrayOperators: ReadonlySet<FilterOperator> = new Set(['contains', 'any', 'all']);

const operatorSet: ReadonlySet<string> = new Set(filterOperators);
const codenamePattern = /^[A-Za-z0-9_]{1,200}$/;
const languagePattern = /^[A-Za-z0-9_-]{1,100}$/;
/** Large enough for any project, small enough to stay a safe integer through arithmetic. */
const maxInteger = 1_000_000_000;
const maxDepth = 1_000;
/**
 * Filters one query may hold. Each is a condition the index plans and runs for the request, so
 * their number bounds the work (1,000 took over 100 ms of the event loop in PGlite); Kontent.ai's
 * 2,000-character URL limit leaves room for about as many as this.
 */
export const maxFilters = 100;
const propertyPattern = /^(system|elements)\.([^[\]]*)(?:\[([^\]]*)\])?$/;

function integer(name: string, value: string | null, max: number): number {
  if (value === null || !/^\d{1,10}$/.test(value) || Number(value) > max) {
    throw invalidQuery(`Query parameter '${name}' must be a whole number from 0 to ${max}.`);
  }
  return Number(value);
}

function codenameList(name: string, value: string | null): string[] {
  const list = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const codename of list) {
    if (!codenamePattern.test(codename)) throw invalidQuery(`'${codename}' in '${name}' is not a codename.`);
  }
  return list;
}

function checkProperty(profile: QueryProfile, kind: string, name: string, forOrder: boolean): string {
  if (kind === 'system') {
    const allowed = forOrder ? profile.systemOrder : profile.systemFilters;
    if (!allowed.includes(name)) throw invalidQuery(`'system.${name}' cannot be used here.`);
  } else if (!profile.isElementFilterAllowed) {
    throw invalidQuery(`Element properties cannot be used here.`);
  } else if (!codenamePattern.test(name)) {
    throw invalidQuery(`'elements.${name.slice(0, 100)}' does not name an element.`);
  }
  return `${kind}.${name}`;
}

function parseOrder(profile: QueryProfile, value: string | null): ItemOrder {
  const m = propertyPattern.exec(value ?? '');
  const direction = (m?.[3] ?? 'asc').toLowerCase();
  if (!m || (direction !== 'asc' && direction !== 'desc')) {
    throw invalidQuery("Query parameter 'order' must look like 'system.name[asc]' or 'elements.title[desc]'.");
  }
  return { property: checkProperty(profile, m[1] as string, m[2] as string, true), direction };
}

function valuesOf(operator: FilterOperator, property: string, value: string | null): string[] {
  const raw = value ?? '';
  switch (operator) {
    case 'empty':
    case 'nempty':
      if (raw !== '') throw invalidQuery(`Operator [${operator}] on '${property}' takes no value.`);
      return [];
    case 'range': {
      const parts = raw.split(',');
      if (parts.length !== 2 || parts.some((p) => p === '')) {
        throw invalidQuery(`Operator [range] on '${property}' takes two values: 'lower,upper'.`);
      }
      return parts;
    }
    case 'in':
    case 'nin':
    case 'any':
    case 'all':
    case 'contains': {
      const parts = raw.split(',').filter((p) => p !== '');
      if (parts.length === 0) throw invalidQuery(`Operator [${operator}] on '${property}' needs at least one value.`);
      return parts;
    }
    case 'eq':
    case 'neq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      if (value === null) throw invalidQuery(`Filter '${property}' needs a value.`);
      return [raw];
    default:
      return assertNever(operator, 'filter operator');
  }
}

function parseFilter(profile: QueryProfile, key: string, value: string | null): ItemFilter | null {
  const m = propertyPattern.exec(key);
  if (!m) return null;
  const property = checkProperty(profile, m[1] as string, m[2] as string, false);
  const token = m[3] ?? 'eq';
  // Operator tokens are case-sensitive (SPEC 4.3 rule 2).
  if (!operatorSet.has(token)) throw invalidQuery(`'[${token.slice(0, 50)}]' is not a filter operator.`);
  const operator = token as FilterOperator;
  if (m[1] === 'system' && arrayOperators.has(operator)) {
    throw invalidQuery(`Operator [${operator}] works only on array elements, not on '${property}'.`);
  }
  return { property, operator, values: valuesOf(operator, property, value) };
}

function parseBoolean(name: string, value: string | null): boolean {
  const v = (value ?? 'true').toLowerCase();
  if (v !== 'true' && v !== 'false') throw invalidQuery(`Query parameter '${name}' must be true or false.`);
  return v === 'true';
}

/**
 * Parses the query string of `url` for an endpoint. Every unknown, repeated (except projections
 * and filters) or malformed parameter is a 400 `INVALID_QUERY` (SPEC 7.3), never a 5xx.
 */
export function parseQuery(url: string, profile: QueryProfile): ParsedQuery {
  const seen = new Map<string, string | null>();
  const filters: ItemFilter[] = [];
  let elements: string[] | null = null;
  let excludeElements: string[] | null = null;
  for (const { key, value } of splitRawQuery(url)) {
    const isStandard = (profile.params as readonly string[]).includes(key);
    if (isStandard && (key === 'elements' || key === 'excludeElements')) {
      // The .NET SDK may repeat collection parameters; they add up.
      const list = codenameList(key, value);
      if (key === 'elements') elements = [...(elements ?? []), ...list];
      else excludeElements = [...(excludeElements ?? []), ...list];
      continue;
    }
    if (isStandard) {
      if (seen.has(key) && seen.get(key) !== value) throw invalidQuery(`Query parameter '${key}' is repeated.`);
      seen.set(key, value);
      continue;
    }
    const filter = parseFilter(profile, key, value);
    if (filter === null) throw invalidQuery(`Unknown query parameter '${key.slice(0, 100)}'.`);
    if (filters.length === maxFilters) throw invalidQuery(`A query may hold at most ${maxFilters} filters.`);
    filters.push(filter);
  }
  const language = seen.has('language') ? (seen.get('language') ?? '') : null;
  if (language !== null && !languagePattern.test(language)) {
    throw invalidQuery("Query parameter 'language' must be a language codename.");
  }
  const limit = seen.has('limit') ? integer('limit', seen.get('limit') ?? null, maxInteger) : 0;
  return {
    language,
    elements: elements === null || (elements as string[]).length === 0 ? null : elements,
    excludeElements: excludeElements === null || (excludeElements as string[]).length === 0 ? null : excludeElements,
    order: seen.has('order') ? parseOrder(profile, seen.get('order') ?? null) : null,
    depth: seen.has('depth') ? integer('depth', seen.get('depth') ?? null, maxDepth) : 1,
    skip: seen.has('skip') ? integer('skip', seen.get('skip') ?? null, maxInteger) : 0,
    limit: limit === 0 ? null : limit,
    isTotalCountIncluded: seen.has('includeTotalCount')
      ? parseBoolean('includeTotalCount', seen.get('includeTotalCount') ?? null)
      : false,
    filters,
  };
}
