import { describe, expect, it } from 'vitest';
import { jsonNestingProblem, maxJsonDepth } from './json-depth.ts';

describe('jsonNestingProblem', () => {
  it('passes bodies up to the depth limit, in text or UTF-8 bytes', () => {
    const deepest = `${'['.repeat(maxJsonDepth)}${']'.repeat(maxJsonDepth)}`;
    expect(jsonNestingProblem(deepest)).toBeNull();
    expect(jsonNestingProblem(Buffer.from(`{"a":[{"b":"ü€ 😀"}]}`))).toBeNull();
  });

  it('refuses deeper nesting, counted in arrays and objects alike, with an INVALID_REQUEST_BODY', () => {
    const deeper = `${'{"a":['.repeat(maxJsonDepth / 2)}{}${']}'.repeat(maxJsonDepth / 2)}`;
    expect(jsonNestingProblem(deeper)?.code).toBe('INVALID_REQUEST_BODY');
    expect(jsonNestingProblem(Buffer.from('['.repeat(400_000)))?.code).toBe('INVALID_REQUEST_BODY');
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ value: `${'['.repeat(1_000)}\\"${'{'.repeat(1_000)}`, more: '"[' });
    expect(jsonNestingProblem(text)).toBeNull();
    expect(jsonNestingProblem(Buffer.from(text))).toBeNull();
  });
});
