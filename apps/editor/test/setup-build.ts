import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Global setup of the `editor` test project: the browser tests run `lectern start`, which serves
 * apps/editor/dist, so the app is built first when its sources are newer than the build
 * (scripts/lib/editor.sh; up to date, this costs one `find`).
 */
export function setup(): void {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  execFileSync('bash', ['-c', 'source scripts/lib/toolchain.sh && source scripts/lib/editor.sh && lectern_editor'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
