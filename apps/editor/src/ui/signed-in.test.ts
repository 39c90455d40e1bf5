import { describe, expect, it } from 'vitest';
import { inLanguage } from './app-frame.tsx';
import { safeNextPath } from './signed-in.tsx';

describe('where sign-in leads', () => {
  it('goes back to a screen of the app, never to another origin', () => {
    expect(safeNextPath('/p/abc/en/content?q=x')).toBe('/p/abc/en/content?q=x');
    for (const hostile of ['//evil.example/x', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', ''])
      expect(safeNextPath(hostile), hostile).toBe('/');
    expect(safeNextPath(null)).toBe('/');
  });
});

describe('the language switcher', () => {
  it('keeps the screen and changes only the language segment', () => {
    expect(inLanguage('/p/abc/en-US/items/123', 'de')).toBe('/p/abc/de/items/123');
    expect(inLanguage('/p/abc/default/content', 'cs-CZ')).toBe('/p/abc/cs-CZ/content');
    expect(inLanguage('/p/abc/default', 'a/b')).toBe('/p/abc/a%2Fb');
  });
});
