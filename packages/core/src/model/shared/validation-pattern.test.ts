import { describe, expect, it } from 'vitest';
import { checkPattern, matchPattern, maxPatternLength, maxPatternTextLength } from './validation-pattern.ts';

/** Issue 27, finding 4: model-defined patterns run in linear time, with JavaScript's meaning. */

const email = String.raw`^(?:[a-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_\`{|}~-]+)*|"(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21\x23-\x5b\x5d-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*")@(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?|[a-z0-9-]*[a-z0-9]:(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21-\x5a\x53-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])+)\])$`;

/*
 * One known difference: without the `u` flag JavaScript sees a character outside the Basic
 * Multilingual Plane (an emoji) as two, RE2 as one, so `^.$` matches an emoji here only.
 */

/** Patterns of the reference fixtures and Kontent.ai's documentation, with flags. */
const patterns: [string, string | null][] = [
  [email, null],
  [email, 'i'],
  [String.raw`^(\+1[\s\.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}$`, null],
  [String.raw`^[a-zA-Z.,?!\s]{1,160}$`, null],
  [String.raw`^[+]*[(]{0,1}[0-9]{1,4}[)]{0,1}[-\s./0-9]*$`, 'i'],
  ['^[a-z]$', null],
  [String.raw`^[^\s\.\s]*$`, null],
  [String.raw`[a-zA-Z][a-zA-Z0-9]*,\s*`, null],
  ['^[A-Z]', 'i'],
  ['^[a-z0-9]+(?:-[a-z0-9]+)*$', null],
  [String.raw`^https?:\/\/[^\s/$.?#].[^\s]*$`, 'i'],
  [String.raw`^\u00e9t\u00e9$`, null],
  ['^(?<year>\\d{4})-(?<month>\\d{2})$', null],
  ['^a.b$', null],
  ['^a.b$', 's'],
  ['^line$', 'm'],
  ['abc', 'y'],
  ['abc', 'g'],
  [String.raw`^\a\e\z$`, null],
  ['^[^]$', null],
  [String.raw`^\S+$`, null],
];
const samples = [
  'jane.doe@example.com',
  'Jane.Doe@Example.COM',
  '"quoted"@[127.0.0.1]',
  'not an email',
  '+1 555-123-4567',
  '(555) 123 4567',
  'Hello, world!',
  'a\u00a0b',
  'a\u2028b',
  'a\rb',
  'a\nb',
  'ab',
  'my-slug-1',
  '-bad-slug',
  'https://example.com/a?b',
  'été',
  '2026-11',
  'first\nline\nlast',
  'xabc',
  'abc',
  'aez',
  '',
  'x,',
];

describe('validation patterns', () => {
  it("give JavaScript's answer for the fixture and documentation patterns, on every sample", () => {
    for (const [regex, flags] of patterns) {
      expect(checkPattern(regex, flags), regex).toEqual({ kind: 'linear' });
      for (const text of samples.filter((s) => s !== '')) {
        const expected = new RegExp(regex, flags ?? '').test(text) ? 'match' : 'no_match';
        expect(matchPattern({ regex, flags, text }), `${regex} /${flags ?? ''} on ${JSON.stringify(text)}`).toBe(
          expected,
        );
      }
    }
  });

  it('answer ^(a+)+$ on long values at once, with the right answer (JavaScript took 490 ms for 26 characters)', () => {
    const started = Date.now();
    expect(matchPattern({ regex: '^(a+)+$', flags: null, text: `${'a'.repeat(100_000)}b` })).toBe('no_match');
    expect(matchPattern({ regex: '^(a+)+$', flags: null, text: 'a'.repeat(100_000) })).toBe('match');
    expect(matchPattern({ regex: '^(a|aa)+$', flags: null, text: `${'a'.repeat(50_000)}!` })).toBe('no_match');
    expect(matchPattern({ regex: '^([a-z]+\\s?)*$', flags: 'i', text: `${'ab '.repeat(20_000)}!` })).toBe('no_match');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('find the constructs the linear-time engine cannot run', () => {
    for (const regex of [
      '^(https?://(?:www.|(?!www)))?[a-z0-9]+$',
      '^(?=.*\\d).{8,}$',
      '(?<=@)example',
      '(?<!x)y',
      '(a)\\1',
      '(?<q>["\'])x\\k<q>',
      'a{1,5000}',
    ]) {
      expect(checkPattern(regex, null).kind, regex).toBe('unsupported');
    }
  });

  it('refuse a pattern longer than the limit, or one JavaScript cannot compile', () => {
    expect(checkPattern('a'.repeat(maxPatternLength + 1), null)).toMatchObject({ kind: 'invalid' });
    expect(checkPattern('a'.repeat(maxPatternLength), null)).toEqual({ kind: 'linear' });
    expect(checkPattern('(', null)).toMatchObject({ kind: 'invalid' });
    expect(checkPattern('a', 'q')).toMatchObject({ kind: 'invalid' });
  });

  it('still run a lookaround pattern saved before, on JavaScript, within the time bound', () => {
    const regex = '^(https?://(?:www.|(?!www)))?[a-z0-9]+$';
    expect(matchPattern({ regex, flags: null, text: 'http://example' })).toBe('match');
    expect(matchPattern({ regex, flags: null, text: 'http://www' })).toBe('no_match');
    const started = Date.now();
    expect(matchPattern({ regex: '^(?=a)(a+)+$', flags: null, text: `${'a'.repeat(40)}b` })).toBe('timed_out');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('draw every backtracking match from one budget, so twenty catastrophic matches cost one bound, not twenty', () => {
    const started = Date.now();
    const answers = Array.from({ length: 20 }, () =>
      matchPattern({ regex: '^(?=a)(a+)+$', flags: null, text: `${'a'.repeat(40)}b` }),
    );
    expect(new Set(answers)).toEqual(new Set(['timed_out']));
    // Twenty separate 50 ms bounds would hold the thread a second; the shared budget about 50 ms.
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('refuse to check a value longer than the limit', () => {
    expect(matchPattern({ regex: 'a', flags: null, text: 'a'.repeat(maxPatternTextLength + 1) })).toBe('too_long');
  });
});
