// Import cycles of the workspace's TypeScript modules (issue 29), run by `pnpm run lint`: prints
// each cycle and exits 1 when there is one.
// Run: node test/lint/import-cycles.ts
//
// A module graph: an edge for every static `import … from` and `export … from` of a relative
// path or of a workspace package (its `exports` entry), `import type` included (a cycle of types
// still ties the modules together); dynamic `import()`s are left out (loaded on use). A cycle is
// a strongly connected set of modules (two or more, or one importing itself).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const roots = ['packages', 'services', 'apps', 'test', 'scripts'];
const skipped = new Set(['node_modules', 'dist', '.tools', 'coverage', '.lectern-data', '.engines']);

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `@lectern/x` (and its subpaths) → the file its `exports` names, for every workspace member. */
function workspaceEntries(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const top of roots) {
    const dir = join(root, top);
    if (!existsSync(dir)) continue;
    for (const member of [dir, ...readdirSync(dir).map((name) => join(dir, name))]) {
      const manifest = join(member, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name, exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        exports?: string | Record<string, unknown>;
      };
      if (name === undefined || exports === undefined) continue;
      const map = typeof exports === 'string' ? { '.': exports } : exports;
      for (const [subpath, target] of Object.entries(map)) {
        if (typeof target === 'string') entries.set(join(name, subpath), resolve(member, target));
      }
    }
  }
  return entries;
}

/** The specifiers of a module's static `import … from` and `export … from` declarations. */
export function staticImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((s) =>
    (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) &&
    s.moduleSpecifier !== undefined &&
    ts.isStringLiteral(s.moduleSpecifier)
      ? [s.moduleSpecifier.text]
      : [],
  );
}

/** Strongly connected sets of two or more modules (or one importing itself), Tarjan's algorithm. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  // Iterative, so that a long chain of modules does not overflow the call stack.
  for (const start of graph.keys()) {
    if (order.has(start)) continue;
    const frames: { node: string; next: number }[] = [{ node: start, next: 0 }];
    order.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!order.has(target)) {
          order.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, order.get(target)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== order.get(frame.node)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.node);
      if (members.length > 1 || targets.includes(frame.node)) found.push(members.sort());
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The runtime import graph of the workspace at `root`, by path relative to it. */
export function importGraph(root: string): Map<string, string[]> {
  const entries = workspaceEntries(root);
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap((top) => sourceFiles(join(root, top)))) {
    const targets: string[] = [];
    for (const specifier of staticImports(file, readFileSync(file, 'utf8'))) {
      let target: string | undefined;
      if (specifier.startsWith('.')) {
        const path = resolve(dirname(file), specifier);
        target = existsSync(path) && statSync(path).isFile() ? path : undefined;
      } else target = entries.get(specifier);
      if (target !== undefined) targets.push(relative(root, target));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

if (import.meta.main) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
  const cycles = cyclesOf(importGraph(root));
  for (const cycle of cycles) process.stdout.write(`import cycle:\n${cycle.map((m) => `  ${m}`).join('\n')}\n`);
  process.stdout.write(`${cycles.length} import cycle(s)\n`);
  process.exit(cycles.length === 0 ? 0 : 1);
}
