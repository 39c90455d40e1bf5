import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** What a running server tells the CLI about itself, in `<data dir>/server.json` (mode 0600). */
export interface ServerInfo {
  readonly pid: number;
  readonly urls: Record<string, string>;
  readonly operatorToken: string;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this process. The embedded database must have one writer: a
 * second server or a CLI opening it directly would corrupt it. A lock left by a killed process
 * (its pid no longer alive) is taken over.
 */
export function lockDataDir(dir: string): { release(): void } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'lectern.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      // An empty file is a lock being taken right now; only a dead pid's lock is taken over.
      const isStale = Number.isInteger(holder) && holder > 0 && holder !== process.pid && !isProcessAlive(holder);
      if (!isStale) {
        throw new Error(
          `The data directory ${dir} is in use by a running Lectern (pid ${holder || 'starting'}). Stop it first, or pass another --data-dir.`,
          { cause: error },
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}; remove ${path} if no Lectern is running.`);
}

export function writeServerInfo(dir: string, info: ServerInfo): void {
  writeFileSync(join(dir, 'server.json'), JSON.stringify(info, null, 2), { mode: 0o600 });
}

export function removeServerInfo(dir: string): void {
  rmSync(join(dir, 'server.json'), { force: true });
}

/** The running server's info, or null when none runs (a file left by a killed server is ignored). */
export function readServerInfo(dir: string): ServerInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as ServerInfo;
    return isProcessAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}
