import { describe, expect, it } from 'vitest';
import { characterCount, findUnstorableStrings, unstorableText } from './text.ts';

describe('characterCount', () => {
  it('counts code points, as a user counts characters', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('😀'.repeat(150))).toBe(150);
    expect(characterCount('a😀b')).toBe(3);
    // A lone surrogate is one (invalid) unit; it is refused elsewhere.
    expect(characterCount('\ud800')).toBe(1);
    expect(characterCount('\udc00\ud800')).toBe(2);
  });
});

describe('unstorableText', () => {
  it('refuses U+0000 and lone surrogates, and accepts whole characters', () => {
    expect(unstorableText('a\u0000b')).toContain('U+0000');
    expect(unstorableText('ok \ud800')).toContain('lone UTF-16 surrogate');
    expect(unstorableText('\udc00')).toContain('lone UTF-16 surrogate');
    expect(unstorableText('😀 é \u0001')).toBeNull();
  });
});

describe('findUnstorableStrings', () => {
  it('names every bad value and property name by its JSON path', () => {
    const body = {
      name: 'a\u0000b',
      elements: [{ element: { codename: 'title' }, value: 'ok \ud800' }, { value: 'fine' }],
      'we\u0000ird': 1,
      nested: { 'sp ace': ['\udfff'] },
    };
    expect(findUnstorableStrings(body)).toEqual([
      { path: 'name', message: expect.stringContaining('U+0000') },
      { path: 'elements[0].value', message: expect.stringContaining('surrogate') },
      { path: '"we\\u0000ird"', message: expect.stringContaining('The property name contains the character U+0000') },
      { path: 'nested."sp ace"[0]', message: expect.stringContaining('surrogate') },
    ]);
    expect(findUnstorableStrings('\u0000')).toEqual([{ path: undefined, message: expect.any(String) }]);
    expect(findUnstorableStrings({ a: [1, null, true, 'x'] })).toEqual([]);
  });

  it('walks a deeply nested body without overflowing the stack, and stops at the limit', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorableStrings(deep)).toHaveLength(1);
    expect(
      findUnstorableStrings(
        Array.from({ length: 100 }, () => '\u0000'),
        5,
      ),
    ).toHaveLength(5);
  });
});
