import { describe, expect, it } from 'vitest';
import { Problems } from '../../model/shared/index.ts';
import { checkCountLimit, checkRegex, checkTextLength, readDateTime, readTimeZone, slugify } from './value-rules.ts';

function messages(run: (p: Problems) => unknown): string[] {
  const problems = new Problems();
  run(problems);
  try {
    problems.throwIfAny();
  } catch (error) {
    return (error as { problems: { message: string }[] }).problems.map((p) => p.message);
  }
  return [];
}

describe('element value rules', () => {
  it('reads date-times as UTC when they carry no offset and answers the Management API form', () => {
    const p = new Problems();
    expect(readDateTime('2017-07-04T00:00:00', 'v', p)).toBe('2017-07-04T00:00:00Z');
    expect(readDateTime('2017-07-04', 'v', p)).toBe('2017-07-04T00:00:00Z');
    expect(readDateTime('2017-07-04T02:00:00+02:00', 'v', p)).toBe('2017-07-04T00:00:00Z');
    expect(readDateTime('2017-07-04T00:00:00.250Z', 'v', p)).toBe('2017-07-04T00:00:00.250Z');
    expect(readDateTime(null, 'v', p)).toBeNull();
    expect(p.isEmpty).toBe(true);
    expect(messages((q) => readDateTime('2014-13-07T00:00:00Z', 'v', q))).toEqual([
      "Value '2014-13-07T00:00:00Z' cannot be assigned to an element of 'DateTime' type.",
    ]);
  });

  it('accepts IANA time zones only', () => {
    expect(readTimeZone('Europe/Prague', 'z', new Problems())).toBe('Europe/Prague');
    expect(messages((q) => readTimeZone('Mars/Olympus', 'z', q))).toHaveLength(1);
  });

  it('checks text length in characters or words, and active patterns on non-empty text', () => {
    expect(messages((q) => checkTextLength('one two three', { value: 2, applies_to: 'words' }, 'v', q))).toHaveLength(
      1,
    );
    expect(messages((q) => checkTextLength('abc', { value: 3, applies_to: 'characters' }, 'v', q))).toEqual([]);
    const rule = { regex: '^[a-z]+$', flags: 'i', validation_message: 'Letters only', is_active: true };
    expect(messages((q) => checkRegex('ABC', rule, 'v', q))).toEqual([]);
    expect(messages((q) => checkRegex('AB1', rule, 'v', q))).toEqual(['Letters only']);
    expect(messages((q) => checkRegex('AB1', { ...rule, is_active: false }, 'v', q))).toEqual([]);
    expect(messages((q) => checkRegex('', rule, 'v', q))).toEqual([]);
  });

  it('checks only upper bounds on save and whole conditions on publish', () => {
    const atLeast = { value: 2, condition: 'at_least' };
    expect(messages((q) => checkCountLimit(1, atLeast, 'items', 'v', q, false))).toEqual([]);
    expect(messages((q) => checkCountLimit(1, atLeast, 'items', 'v', q, true))).toHaveLength(1);
    expect(messages((q) => checkCountLimit(0, atLeast, 'items', 'v', q, true))).toEqual([]);
    expect(
      messages((q) => checkCountLimit(3, { value: 2, condition: 'exactly' }, 'items', 'v', q, false)),
    ).toHaveLength(1);
  });

  it('makes URL slugs from text', () => {
    expect(slugify('On Roasts: Light & Dark!')).toBe('on-roasts-light-dark');
    expect(slugify('Café Crème')).toBe('cafe-creme');
  });
});
