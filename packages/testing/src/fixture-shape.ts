import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Root of the recorded real responses: `LECTERN_REFERENCE_DIR/fixtures`, by default
 * `../shared/reference/fixtures` beside the repository (where CI and the team keep it).
 */
export const fixturesRoot = join(
  process.env['LECTERN_REFERENCE_DIR'] ??
    join(new URL('../../../', import.meta.url).pathname, '..', 'shared', 'reference'),
  'fixtures',
);

/** Reads a fixture JSON file by its path under `fixtures/`. */
export function readFixture<T = unknown>(relativePath: string): T {
  return JSON.parse(readFileSync(join(fixturesRoot, relativePath), 'utf8')) as T;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Field-by-field shape comparison of a response against a recorded one: every field the fixture
 * has must exist in `actual` with the same JSON type (null matches any type, since recorded values
 * may be unset), recursively; arrays compare their first elements. Returns the list of mismatches
 * as `path: expected … got …` strings (empty when the shapes agree). Extra fields in `actual` are
 * reported only with `isExact`.
 */
export function shapeDifferences(
  actual: unknown,
  fixture: unknown,
  options: { isExact?: boolean; ignore?: readonly string[] } = {},
  path = '$',
): string[] {
  if (options.ignore?.includes(path)) return [];
  const want = kindOf(fixture);
  const got = kindOf(actual);
  if (want === 'null' || (got === 'null' && want !== 'array' && want !== 'object')) return [];
  if (want !== got) return [`${path}: expected ${want}, got ${got}`];
  if (want === 'array') {
    const f = fixture as unknown[];
    const a = actual as unknown[];
    if (f.length === 0 || a.length === 0) return [];
    return shapeDifferences(a[0], f[0], options, `${path}[0]`);
  }
  if (want !== 'object') return [];
  const f = fixture as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const out: string[] = [];
  for (const key of Object.keys(f)) {
    if (!(key in a)) {
      if (!options.ignore?.includes(`${path}.${key}`)) out.push(`${path}.${key}: missing`);
      continue;
    }
    out.push(...shapeDifferences(a[key], f[key], options, `${path}.${key}`));
  }
  if (options.isExact)
    for (const key of Object.keys(a)) if (!(key in f)) out.push(`${path}.${key}: not in the fixture`);
  return out;
}
