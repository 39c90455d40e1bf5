import { describe, expect, it } from 'vitest';
import { cyclesOf, staticImports } from './import-cycles.ts';

/* The cycle check that `pnpm run lint` runs (test/lint/import-cycles.ts), on graphs made for it. */

describe('cyclesOf', () => {
  it('finds each strongly connected set of modules once, a self-import included', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['d.ts']],
      ['f.ts', ['f.ts']],
      ['g.ts', ['a.ts']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts', 'e.ts'], ['f.ts']]);
  });

  it('finds none in a graph without a way back', () => {
    const chain = new Map(Array.from({ length: 50_000 }, (_, i) => [`m${i}.ts`, i === 0 ? [] : [`m${i - 1}.ts`]]));
    chain.set('top.ts', ['m49999.ts', 'm0.ts']);
    expect(cyclesOf(chain)).toEqual([]);
  });
});

describe('staticImports', () => {
  it('lists imports and re-exports, types included, and leaves dynamic imports out', () => {
    const code = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "export { c } from './c.ts';",
      "export * from '@lectern/core';",
      "const lazy = () => import('./lazy.ts');",
      'export const d = 1;',
    ].join('\n');
    expect(staticImports('x.ts', code)).toEqual(['./a.ts', './b.ts', './c.ts', '@lectern/core']);
  });
});
