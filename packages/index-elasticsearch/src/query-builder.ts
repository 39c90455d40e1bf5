import {
  assertNever,
  systemColumns,
  type FilterOperator,
  type ItemCondition,
  type ItemFilter,
  type ItemOrder,
  type ItemQuery,
} from '@lectern/core';

/**
 * The query DSL of `queryItems` (SPEC 4.3 rules 2–6), the same JSON for OpenSearch and
 * Elasticsearch. It answers exactly what the SQL index answers (packages/index-sql/query-sql.ts):
 * numbers compare numerically when the given value is a number, strings compare as strings (by
 * code point: keyword terms are UTF-8 bytes), a scalar filter needs the element to exist, arrays
 * (`contains`/`any`/`all`) compare the codenames of linked items, multiple choice, taxonomy and
 * custom elements holding a JSON array of strings. The model hint (`typeElements`) is not needed:
 * every value sits in the sub-field of its own type.
 */

type Query = Record<string, unknown>;

const matchNone: Query = { match_none: {} };
const and = (...filter: Query[]): Query => ({ bool: { filter } });
const or = (should: Query[]): Query =>
  should.length === 0 ? matchNone : should.length === 1 ? should[0]! : { bool: { should, minimum_should_match: 1 } };
const not = (query: Query, ...filter: Query[]): Query => ({ bool: { filter, must_not: [query] } });
const term = (field: string, value: unknown): Query => ({ term: { [field]: value } });
const terms = (field: string, values: readonly unknown[]): Query =>
  values.length === 0 ? matchNone : { terms: { [field]: values } };

/** Item-level properties stored as keyword fields of the document. */
const systemFields: Readonly<Record<string, string>> = systemColumns;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Codenames are `[a-z0-9_]`; anything else names no element (and never reaches a field pattern). */
const namePattern = /^[A-Za-z0-9_]+$/;

type Target =
  | { readonly kind: 'field'; readonly field: string }
  | { readonly kind: 'value'; readonly base: string; readonly members: string }
  | { readonly kind: 'none' };

function targetOf(property: string): Target {
  const dot = property.indexOf('.');
  if (dot < 0) return { kind: 'none' };
  const scope = property.slice(0, dot);
  const name = property.slice(dot + 1);
  if ((scope !== 'system' && scope !== 'elements') || !namePattern.test(name)) return { kind: 'none' };
  const field = systemFields[property];
  if (field !== undefined) return { kind: 'field', field };
  return { kind: 'value', base: `v.${scope}.${name}`, members: `m.${scope}.${name}` };
}

function asNumber(value: string): number | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

type Comparison = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';

function compare(field: string, op: Comparison, value: unknown): Query {
  return op === 'eq' ? term(field, value) : { range: { [field]: { [op]: value } } };
}

/** A value compared as Delivery compares: as a number when the given value is one, else as a string. */
function compareValue(base: string, op: Comparison, given: string): Query {
  const n = asNumber(given);
  return or([...(n === null ? [] : [compare(`${base}.n`, op, n)]), compare(`${base}.s`, op, given)]);
}

function inValues(base: string, values: readonly string[]): Query {
  const numbers = values.map(asNumber).filter((n): n is number => n !== null);
  return or([...(numbers.length === 0 ? [] : [terms(`${base}.n`, numbers)]), terms(`${base}.s`, values)]);
}

function valueFilter(base: string, members: string, filter: ItemFilter): Query {
  const [first = '', second = ''] = filter.values;
  const exists: Query = { exists: { field: `${base}.k` } };
  switch (filter.operator) {
    case 'eq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return compareValue(base, filter.operator, first);
    case 'neq':
      return not(compareValue(base, 'eq', first), exists);
    case 'range':
      return and(compareValue(base, 'gte', first), compareValue(base, 'lte', second));
    case 'in':
      return inValues(base, filter.values);
    case 'nin':
      return not(inValues(base, filter.values), exists);
    case 'empty':
      return term(`${base}.e`, true);
    case 'nempty':
      return term(`${base}.e`, false);
    case 'any':
      return terms(members, filter.values);
    case 'contains':
    case 'all': {
      const values = [...new Set(filter.values)];
      return values.length === 0 ? matchNone : and(...values.map((v) => term(members, v)));
    }
  }
}

function fieldComparison(field: string, operator: FilterOperator, values: readonly string[]): Query {
  const [first = '', second = ''] = values;
  switch (operator) {
    case 'eq':
      return term(field, first);
    case 'neq':
      return not(term(field, first));
    case 'in':
      return terms(field, values);
    case 'nin':
      return not(terms(field, values));
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return compare(field, operator, first);
    case 'range':
      return { range: { [field]: { gte: first, lte: second } } };
    case 'empty':
      return term(field, '');
    case 'nempty':
      return not(term(field, ''));
    case 'contains':
    case 'any':
    case 'all':
      // System properties are no arrays.
      return matchNone;
    default:
      return assertNever(operator, 'filter operator');
  }
}

function fieldFilter(field: string, filter: ItemFilter): Query {
  if (field === 'item_id') {
    // The id compares as its canonical text; only a canonical id can equal one.
    const ids = filter.values.filter((x) => uuidPattern.test(x));
    if (filter.operator === 'eq' || filter.operator === 'in') return terms(field, ids);
    if (filter.operator === 'neq' || filter.operator === 'nin')
      return ids.length === 0 ? and() : not(terms(field, ids));
  }
  return fieldComparison(field, filter.operator, filter.values);
}

export function filterQuery(filter: ItemFilter): Query {
  const target = targetOf(filter.property);
  if (target.kind === 'none') return matchNone;
  if (target.kind === 'field') return fieldFilter(target.field, filter);
  return valueFilter(target.base, target.members, filter);
}

/** An AND / OR combination of filters: a bool `filter` (empty: every document) or `should` (empty: none). */
export function conditionQuery(condition: ItemCondition): Query {
  if ('allOf' in condition) return and(...condition.allOf.map(conditionQuery));
  if ('anyOf' in condition) return or(condition.anyOf.map(conditionQuery));
  return filterQuery(condition);
}

/** Versions visible at watermark `seq`: written at or before it and not superseded by then. */
export function visibleAt(seq: number): Query {
  return not({ range: { until: { lte: seq } } }, { range: { from: { lte: seq } } });
}

/** Each item once, in the first language of the list it has a document in. */
export function languageQuery(languages: readonly string[]): Query {
  if (languages.length <= 1) return terms('language', languages);
  return or(
    languages.map((language, i) =>
      i === 0 ? term('language', language) : not(terms('langs', languages.slice(0, i)), term('language', language)),
    ),
  );
}

export interface EngineItemQuery extends Pick<
  ItemQuery,
  'projectId' | 'channel' | 'languages' | 'filters' | 'conditions'
> {
  readonly codenames?: readonly string[];
  readonly watermark: number;
}

export function itemQuery(query: EngineItemQuery): Query {
  return and(
    term('project', query.projectId),
    term('channel', query.channel),
    visibleAt(query.watermark),
    languageQuery(query.languages),
    ...(query.codenames === undefined ? [] : [terms('codename', query.codenames)]),
    ...query.filters.map(filterQuery),
    ...(query.conditions ?? []).map(conditionQuery),
  );
}

/** The sort keys of one order: a keyword field, or a value's number then its text (null greatest). */
function sortKeys(order: ItemOrder): object[] {
  const target = targetOf(order.property);
  if (target.kind === 'none') return [];
  if (target.kind === 'field') return [{ [target.field]: { order: order.direction } }];
  const missing = order.direction === 'asc' ? '_last' : '_first';
  return [
    { [`${target.base}.n`]: { order: order.direction, missing, unmapped_type: 'double' } },
    { [`${target.base}.t`]: { order: order.direction, missing, unmapped_type: 'keyword' } },
  ];
}

/**
 * The sort of a list: by the order property, then each of `thenBy` for its ties, then (and by
 * default) by codename.
 */
export function itemSort(order: ItemOrder | null, thenBy: readonly ItemOrder[] = []): object[] {
  const byCodename = { codename: { order: 'asc' } };
  if (order === null) return [byCodename];
  const first = sortKeys(order);
  if (first.length === 0) return [byCodename];
  return [...first, ...thenBy.flatMap(sortKeys), byCodename];
}
