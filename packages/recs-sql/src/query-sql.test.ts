import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseRecsQuery, type QueryNode } from '@lectern/core';
import { querySql } from './query-sql.ts';

/** Compiles without a database (kysely's documented "compile only" set-up). */
const db = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const compiled = (node: QueryNode) => querySql(node, { nowMs: 1 }).compile(db);

describe('the SQL of a filter or booster', () => {
  it('writes a sum of 60 modulos in SQL linear in its length (a chain of % doubled it per operator)', () => {
    const text = `${Array.from({ length: 60 }, () => `'lastupdated' % 7`).join(' + ')} >= 0`;
    const { sql, parameters } = compiled(parseRecsQuery(text, 'filter'));
    // Each divisor, a parameter, is written twice (PostgreSQL has no floored modulo for floats).
    expect(parameters).toHaveLength(2 * 60 + 1);
    expect(sql.length).toBeLessThan(200 * 60);
  });

  it('tests membership in an if that gives a set as a set ("a" in (if … then {…} else {…}) answered 500)', () => {
    const { sql } = compiled(parseRecsQuery(`"a" in (if true then {"a"} else {"b"})`, 'filter'));
    expect(sql).toMatch(/\(case when true then array\[.*\]::text\[\] else array\[.*\]::text\[\] end\) @> array\[/);
    expect(compiled(parseRecsQuery(`"a" in (if true then "abc" else 'name')`, 'filter')).sql).toMatch(/strpos\(/);
  });

  it('reads no column for a property name Object.prototype holds, even unchecked', () => {
    const node: QueryNode = { kind: 'property', name: 'constructor', column: 1 };
    expect(compiled(node).sql).toBe('null');
  });
});
