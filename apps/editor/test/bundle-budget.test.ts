import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleSizes, editorDist, readManifest } from './bundle-size.ts';

/*
 * The initial JavaScript budget (issue 28: at most 250 KB compressed): index.html's entry and
 * every chunk it imports statically, from Vite's manifest of the build the server serves (the
 * project's global setup builds it when stale). Lazy chunks (dynamic imports) load later and are
 * not counted.
 */

const budgetBytes = 250_000;

describe('the editor bundle', () => {
  it('loads at most 250 KB of gzip-compressed JavaScript before the first screen', () => {
    const sizes = bundleSizes();
    expect(sizes.initialFiles.length).toBeGreaterThan(0);
    console.log(
      `editor bundle: initial JS ${(sizes.initialGzip / 1000).toFixed(1)} KB gzip (${sizes.initialFiles.join(', ')}), ` +
        `all JS ${(sizes.totalGzip / 1000).toFixed(1)} KB gzip (${(sizes.totalRaw / 1000).toFixed(0)} KB raw); budget ${budgetBytes / 1000} KB`,
    );
    expect(sizes.initialGzip).toBeLessThanOrEqual(budgetBytes);
  });

  it("is React's production build (a development build is larger and slower)", () => {
    const entry = readManifest()['index.html'];
    expect(entry?.isEntry).toBe(true);
    const code = readFileSync(join(editorDist, entry?.file ?? ''), 'utf8');
    expect(code).not.toContain('recentlyCreatedOwnerStacks');
  });
});
