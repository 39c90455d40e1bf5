import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir.ts';

/** Issue 27, finding 11: the data directory holds webhook secrets; no other user may read it. */
const modeOf = (path: string) => statSync(path).mode & 0o777;
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'lectern-data-dir-'));
  roots.push(root);
  return root;
}

describe('the data directory', () => {
  it('is created owner-only, with its database and blob directories', () => {
    const dir = join(tempRoot(), 'nested', 'data');
    lockDataDir(dir).release();
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, 'pglite'))).toBe(0o700);
    expect(modeOf(join(dir, 'blobs'))).toBe(0o700);
  });

  it('is tightened at start when an earlier version left it readable by others', () => {
    const dir = join(tempRoot(), 'data');
    mkdirSync(join(dir, 'pglite', 'base'), { recursive: true });
    mkdirSync(join(dir, 'blobs'));
    writeFileSync(join(dir, 'notes.txt'), 'x');
    for (const path of [dir, join(dir, 'pglite'), join(dir, 'blobs')]) chmodSync(path, 0o755);
    chmodSync(join(dir, 'notes.txt'), 0o644);
    lockDataDir(dir).release();
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, 'pglite'))).toBe(0o700);
    expect(modeOf(join(dir, 'blobs'))).toBe(0o700);
    expect(modeOf(join(dir, 'notes.txt'))).toBe(0o600);
  });

  it("waits a moment for a live holder to end (a server whose supervisor was just killed), but not for ever", () => {
    const dir = join(tempRoot(), 'data');
    mkdirSync(dir);
    // A process that is not this one's child (init reaps it), alive for 0.5 s.
    const briefPid = execFileSync('sh', ['-c', 'sleep 0.5 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' }).trim();
    writeFileSync(join(dir, 'lectern.lock'), briefPid);
    lockDataDir(dir, { waitMs: 5_000 }).release();
    const longPid = execFileSync('sh', ['-c', 'sleep 30 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' }).trim();
    writeFileSync(join(dir, 'lectern.lock'), longPid);
    try {
      expect(() => lockDataDir(dir, { waitMs: 300 })).toThrow(/in use by a running Lectern/);
    } finally {
      process.kill(Number(longPid));
    }
  });
});
