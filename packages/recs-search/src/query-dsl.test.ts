import { describe, expect, it } from 'vitest';
import { parseRecsQuery, type QueryNode } from '@lectern/core';
import { evaluateQuery } from './evaluate.ts';
import { scriptQuery } from './painless.ts';
import { filterDsl, type Dsl } from './query-dsl.ts';

const nowMs = 1_700_000_000_000;
const compile = (text: string): Dsl =>
  filterDsl(parseRecsQuery(text, 'filter'), { nowMs, script: (n) => scriptQuery(n, { nowMs }) });
const sourceOf = (text: string): string =>
  (scriptQuery(parseRecsQuery(text, 'filter'), { nowMs }) as { script: { script: { source: string } } }).script.script
    .source;
/** The deepest nesting of objects and arrays in a value. */
const depthOf = (v: unknown): number =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;

describe('the OpenSearch form of a filter', () => {
  it('writes a Painless script linear in the filter for chains of arithmetic (each term doubled it)', () => {
    for (const text of [
      `${Array.from({ length: 60 }, () => `'lastupdated' % 7`).join(' + ')} >= 0`,
      `'lastupdated'${' / 2'.repeat(60)} >= 0`,
      `'lastupdated'${' + 1'.repeat(60)} > now()`,
    ]) {
      const source = sourceOf(text);
      expect(source.length).toBeLessThan(6_000);
      expect(source.startsWith('double lecternDiv(')).toBe(true);
    }
  });

  it('keeps a query linear when an if is nested in the condition of an if (it doubled per level)', () => {
    const text = `${'if '.repeat(30)}'type' == "article"${' then true else false'.repeat(30)}`;
    expect(text.length).toBeLessThan(1_000);
    const json = JSON.stringify(compile(text));
    expect(json.length).toBeLessThan(20_000);
    expect(json).toContain('"painless"');
  });

  it('makes a chain of ors one bool query, whatever its length or grouping', () => {
    const text =
      Array.from({ length: 150 }, (_, i) => `'codename' == "c${i}"`)
        .join(' or ')
        .replace(/^/, '(') + ')';
    const dsl = compile(text) as { bool: { should: Dsl[] } };
    expect(dsl.bool.should).toHaveLength(150);
    expect(depthOf(dsl)).toBeLessThan(8);
  });

  it('compiles membership in an if that gives a set or a property as a script', () => {
    const source = sourceOf(`"a" in (if 'type' == "x" then {"a"} else 'properties')`);
    expect(source).toMatch(/\? \(\[.*\]\) : \(doc\['properties'\]\)\)\.contains\(/);
    expect(compile(`"a" in (if true then {"a"} else {"b"})`)).toEqual({ match_all: {} });
  });

  it('reads no field for a property name Object.prototype holds, even unchecked', () => {
    const node: QueryNode = { kind: 'property', name: 'constructor', column: 1 };
    const fields = { codename: 'c', name: 'n', type: 't', lastupdated: 1, properties: [] };
    expect(evaluateQuery(node, fields, nowMs)).toBeNull();
    expect(evaluateQuery({ ...node, name: '__proto__' }, fields, nowMs)).toBeNull();
  });
});
