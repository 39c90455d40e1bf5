import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
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

/** The subdirectories a server keeps in its data directory: the embedded database and the blob store. */
export const dataDirChildren = ['pglite', 'blobs'] as const;

/**
 * Creates the data directory owner-only (0700), or tightens an existing one: the embedded
 * database holds webhook secrets and key hashes, the blob store unpublished assets. The directory
 * and its subdirectories become 0700, the files directly in it 0600; what lies deeper is then
 * reachable by the owner alone (no one else may enter the directory), whatever mode the database
 * engine gave it. Symbolic links are left alone.
 */
export function secureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const child of dataDirChildren) mkdirSync(join(dir, child), { recursive: true, mode: 0o700 });
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const info = lstatSync(path);
    if (info.isDirectory()) chmodSync(path, 0o700);
    else if (info.isFile()) chmodSync(path, 0o600);
  }
}

/**
 * Takes the data directory for this process (creating or tightening it: `secureDataDir`). The embedded database must have one writer: a
 * second server or a CLI opening it directly would corrupt it. A lock left by a killed process
 * (its pid no longer alive) is taken over. A live holder is waited for up to `waitMs`: a server
 * whose supervisor was just killed ends itself within moments (it notices its parent's death),
 * so a start right after a crash finds the directory free instead of refusing.
 */
export function lockDataDir(dir: string, options: { waitMs?: number } = {}): { release(): void } {
  secureDataDir(dir);
  const path = join(dir, 'lectern.lock');
  const deadline = Date.now() + (options.waitMs ?? 5_000);
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
      const isStale = () => Number.isInteger(holder) && holder > 0 && holder !== process.pid && !isProcessAlive(holder);
      // Before this process serves anything: a blocking pause costs no one.
      while (!isStale() && holder !== process.pid && Date.now() < deadline) sleepSync(100);
      if (!isStale()) {
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

const pause = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}
