import { assertNever, type ItemFilter } from '@lectern/core';

/** The comparable form of a value: a scalar (string, number, null) or a list of codenames. */
type Comparable = string | number | null | readonly string[];

/** Array element values as codenames: linked items are codenames, options and terms have `codename`. */
function comparable(value: unknown): Comparable {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (Array.isArray(value)) {
    return value.map((v) =>
      typeof v === 'object' && v !== null && 'codename' in v
        ? String((v as { codename: unknown }).codename)
        : String(v),
    );
  }
  return JSON.stringify(value);
}

function compare(a: string | number, b: string): number {
  if (typeof a === 'number') {
    const n = Number(b);
    return Number.isNaN(n) ? Number.NaN : a - n;
  }
  // Strings, dates included, compare as strings (SPEC 4.3 rule 6).
  return a < b ? -1 : a > b ? 1 : 0;
}

function isEmpty(v: Comparable): boolean {
  return v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/**
 * Whether a value passes one filter, with the semantics the index implements (SPEC 4.3). Used where
 * Delivery filters small lists itself (used-in, languages, one item); the index filters item lists.
 */
export function matchesFilter(raw: unknown, filter: ItemFilter): boolean {
  const v = comparable(raw);
  const [first = '', second = ''] = filter.values;
  switch (filter.operator) {
    case 'empty':
      return isEmpty(v);
    case 'nempty':
      return !isEmpty(v);
    case 'contains':
    case 'all':
      return Array.isArray(v) && filter.values.every((x) => v.includes(x));
    case 'any':
      return Array.isArray(v) && filter.values.some((x) => v.includes(x));
    default:
      break;
  }
  if (v === null || Array.isArray(v)) return filter.operator === 'neq' || filter.operator === 'nin';
  const scalar = v as string | number;
  switch (filter.operator) {
    case 'eq':
      return compare(scalar, first) === 0;
    case 'neq':
      return compare(scalar, first) !== 0;
    case 'in':
      return filter.values.some((x) => compare(scalar, x) === 0);
    case 'nin':
      return !filter.values.some((x) => compare(scalar, x) === 0);
    case 'lt':
      return compare(scalar, first) < 0;
    case 'lte':
      return compare(scalar, first) <= 0;
    case 'gt':
      return compare(scalar, first) > 0;
    case 'gte':
      return compare(scalar, first) >= 0;
    case 'range':
      return compare(scalar, first) >= 0 && compare(scalar, second) <= 0;
    default:
      return assertNever(filter.operator, 'filter operator');
  }
}

/** The value a filter property names on a Delivery object (`system.x` or `elements.x.value`). */
export function propertyValue(
  object: { readonly system: object; readonly elements?: Readonly<Record<string, { readonly value: unknown }>> },
  property: string,
): unknown {
  const dot = property.indexOf('.');
  const head = property.slice(0, dot);
  const name = property.slice(dot + 1);
  if (head === 'system') return (object.system as Record<string, unknown>)[name];
  return object.elements?.[name]?.value;
}

export function matchesAll(object: Parameters<typeof propertyValue>[0], filters: readonly ItemFilter[]): boolean {
  return filters.every((f) => matchesFilter(propertyValue(object, f.property), f));
}
