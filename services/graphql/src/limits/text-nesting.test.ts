import { describe, expect, it } from 'vitest';
import { excessNesting } from './text-nesting.ts';

describe('bracket nesting before parsing (issue 27)', () => {
  it('finds lists, objects and selection sets nested over the bound', () => {
    expect(excessNesting(`{ a(x: ${'['.repeat(1_990)}${']'.repeat(1_990)}) }`, 500)).toBe(501);
    expect(excessNesting(`${'{ a '.repeat(600)}${'}'.repeat(600)}`, 500)).toBe(501);
    expect(excessNesting('{ a(x: [[1]], y: {b: {c: 2}}) { b { c } } }', 500)).toBeNull();
    expect(excessNesting('{ a(x: [[1]]) }', 2)).toBe(3);
  });

  it('skips brackets in strings, block strings and comments', () => {
    const inside = '['.repeat(600);
    expect(excessNesting(`{ a(x: "${inside}\\"${inside}") }`, 500)).toBeNull();
    expect(excessNesting(`{ a(x: """${inside} \\""" ${inside}""") }`, 500)).toBeNull();
    expect(excessNesting(`# ${inside}\n{ a }`, 500)).toBeNull();
    // After a string closes, brackets count again.
    expect(excessNesting(`{ a(x: "]]]") ${'{'.repeat(10)} }`, 5)).toBe(6);
  });
});
