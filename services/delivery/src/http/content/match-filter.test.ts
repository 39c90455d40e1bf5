import { describe, expect, it } from 'vitest';
import type { FilterOperator } from '@lectern/core';
import { matchesFilter } from './match-filter.ts';

const m = (value: unknown, operator: FilterOperator, ...values: string[]) =>
  matchesFilter(value, { property: 'elements.x', operator, values });

describe('matchesFilter', () => {
  it('compares numbers numerically and strings as strings', () => {
    expect(m(10, 'gt', '9')).toBe(true);
    expect(m('10', 'gt', '9')).toBe(false);
    expect(m('2020-05-04T10:00:00Z', 'lt', '2020-05-05')).toBe(true);
    expect(m(7, 'range', '6.5', '9')).toBe(true);
    expect(m(9, 'range', '6.5', '9')).toBe(true);
    expect(m(9.1, 'range', '6.5', '9')).toBe(false);
  });

  it('treats null, empty text and empty lists as empty', () => {
    expect(m(null, 'empty')).toBe(true);
    expect(m('', 'empty')).toBe(true);
    expect(m([], 'empty')).toBe(true);
    expect(m(['a'], 'nempty')).toBe(true);
    expect(m(null, 'eq', 'a')).toBe(false);
    expect(m(null, 'neq', 'a')).toBe(true);
  });

  it('compares lists by codename', () => {
    const choices = [
      { name: 'A', codename: 'a' },
      { name: 'B', codename: 'b' },
    ];
    expect(m(choices, 'contains', 'a')).toBe(true);
    expect(m(choices, 'any', 'c', 'b')).toBe(true);
    expect(m(choices, 'all', 'a', 'b')).toBe(true);
    expect(m(choices, 'all', 'a', 'c')).toBe(false);
    expect(m(['item_a'], 'contains', 'item_a')).toBe(true);
    expect(m('a', 'contains', 'a')).toBe(false);
    expect(m('a', 'in', 'b', 'a')).toBe(true);
    expect(m('a', 'nin', 'b', 'a')).toBe(false);
  });
});
