/* Test helper (Node only): the rich text values recorded in the reference fixtures of the
   Management API (`LECTERN_REFERENCE_DIR/fixtures/management`, by default ../shared/reference
   beside the repository, as packages/testing/src/fixture-shape.ts has it). */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root: the nearest directory above the working directory with pnpm-workspace.yaml. */
function repositoryRoot(): string {
  let dir = process.cwd();
  while (!existsSync(join(dir, 'pnpm-workspace.yaml')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const referenceDir = process.env['LECTERN_REFERENCE_DIR'] ?? join(repositoryRoot(), '..', 'shared', 'reference');

const looksLikeRichText = /^\s*<(p|h[1-6]|ul|ol|table|figure|object)[\s>]/;

function* jsonFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* jsonFiles(path);
    else if (name.endsWith('.json')) yield path;
  }
}

function* stringsIn(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* stringsIn(v);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) yield* stringsIn(v);
}

/** Every distinct rich-text-looking string value of the Management API fixtures, with its file. */
export function fixtureRichTextValues(): { file: string; html: string }[] {
  const root = join(referenceDir, 'fixtures', 'management');
  const seen = new Set<string>();
  const out: { file: string; html: string }[] = [];
  for (const file of jsonFiles(root)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    for (const html of stringsIn(json)) {
      if (!looksLikeRichText.test(html) || seen.has(html)) continue;
      seen.add(html);
      out.push({ file: file.slice(root.length + 1), html });
    }
  }
  return out;
}
