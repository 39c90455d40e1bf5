import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../cluster/service-process.ts';
import { dockerfileEntries } from './k8s-tools.ts';

// The image cannot be built here (no container engine); its /app is laid out by the same script
// the Dockerfile runs, from the local pnpm store (--offline), and each entry is started from it.
describe('the image layout (scripts/image-layout.sh, as the Dockerfile runs it)', () => {
  const app = join(mkdtempSync(join(tmpdir(), 'lectern-image-')), 'app');
  const layout = (...args: string[]) =>
    execFileSync('sh', [join(repoRoot, 'scripts', 'image-layout.sh'), ...args], { cwd: repoRoot, stdio: 'pipe' });

  beforeAll(() => {
    layout('manifests', repoRoot, app);
    layout('deps', app, '--offline', '--reporter=silent');
    layout('sources', repoRoot, app);
  }, 120_000);
  afterAll(() => rmSync(join(app, '..'), { recursive: true, force: true }));

  it('holds production dependencies only, and no test files', () => {
    const installed = readdirSync(join(app, 'node_modules', '.pnpm'));
    expect(installed.filter((p) => /^(vitest|typescript|eslint|prettier|@kontent-ai)[@+]/.test(p))).toEqual([]);
    expect(installed.some((p) => p.startsWith('fastify@'))).toBe(true);
    const tests = execFileSync('find', ['.', '-name', '*.test.ts', '-not', '-path', '*/node_modules/*'], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(tests).toBe('');
    // Nor test helpers: no module of the image loads a test library or the contract suites.
    const pattern = "from '(vitest|@lectern/testing|fast-check|playwright-core)'";
    const helpers = spawnSync('grep', ['-rlE', pattern, '--include=*.ts', 'packages', 'services'], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(helpers.stdout).toBe('');
    expect(helpers.status).toBe(1);
  });

  it('builds the editor app from the lockfile alone into apps/editor/dist, where Management serves it', () => {
    const out = join(app, '..', 'editor');
    layout('editor', repoRoot, out, '--offline', '--reporter=silent');
    const index = readFileSync(join(out, 'apps', 'editor', 'dist', 'index.html'), 'utf8');
    const entry = /<script type="module" crossorigin src="\/app\/(assets\/[^"]+\.js)">/.exec(index)?.[1];
    expect(entry).toBeDefined();
    expect(existsSync(join(out, 'apps', 'editor', 'dist', entry!))).toBe(true);
    // No inline script: the app's CSP has no 'unsafe-inline'.
    expect(index.match(/<script/g)).toHaveLength(1);
  }, 120_000);

  it('starts every entry of the Dockerfile that exists in this tree with only that layout (--help loads every module)', () => {
    const entries = dockerfileEntries();
    expect(entries).toEqual(expect.arrayContaining(['services/management/src/migrate.ts']));
    expect(entries).toHaveLength(7);
    for (const entry of entries) {
      if (!existsSync(join(repoRoot, entry))) {
        console.warn(`!!! ${entry} is not in this tree; the image's entry is NOT checked`);
        continue;
      }
      const help = execFileSync(process.execPath, [join(app, entry), '--help'], {
        cwd: app,
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '' },
      });
      expect(help).toContain('LECTERN_LOG_LEVEL');
    }
  });
});
