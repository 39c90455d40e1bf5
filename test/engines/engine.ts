import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running engine: where to reach it and how to stop it. */
export interface RunningEngine {
  /** Connection details handed to tests through vitest's `provide`. */
  readonly endpoint: string;
  /** The server process, for reports of its memory. */
  readonly pid?: number | undefined;
  /**
   * The run directory (data and logs). `startForTests` deletes it after a clean stop, unless
   * LECTERN_KEEP_ENGINE_DATA=true; a failed start leaves it in place for its logs.
   */
  readonly dir?: string | undefined;
  stop(): Promise<void>;
}

/** In CI every engine is required; elsewhere a missing one skips its tests, loudly. */
export const isEngineRequired = process.env['CI'] === 'true' || process.env['LECTERN_REQUIRE_ENGINES'] === 'true';

/** A fresh directory for one run of one engine (data and logs). */
export function runDir(engine: string): string {
  return mkdtempSync(join(tmpdir(), `lectern-${engine}-`));
}

/** The last lines of a log file, for failure messages. */
export function tailOf(path: string, lines = 30): string {
  if (!existsSync(path)) return `(no log at ${path})`;
  return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n');
}

/** Resident set size of a process in MiB, read from /proc (Linux only; undefined elsewhere). */
export function residentMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Math.round(Number(match[1]) / 1024);
  } catch {
    return undefined;
  }
}

/**
 * Starts an engine for a vitest global setup. Returns the endpoint, or '' when the engine is
 * unavailable outside CI (the tests that need it then skip themselves).
 */
export async function startForTests(options: {
  name: string;
  installHint: string;
  start: () => Promise<RunningEngine>;
}): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const began = Date.now();
  try {
    const engine = await options.start();
    const rss = residentMiB(engine.pid);
    console.log(
      `[engines] ${options.name} ready at ${engine.endpoint} in ${Date.now() - began} ms` +
        (rss === undefined ? '' : ` (RSS ${rss} MiB)`),
    );
    return {
      endpoint: engine.endpoint,
      async stop() {
        await engine.stop();
        if (engine.dir && process.env['LECTERN_KEEP_ENGINE_DATA'] !== 'true') {
          rmSync(engine.dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    const message = `[engines] ${options.name} could not start: ${(error as Error).message}`;
    if (isEngineRequired) throw new Error(`${message}\nInstall it with: ${options.installHint}`, { cause: error });
    console.warn(
      `\n!!! ${message}\n!!! Tests that need ${options.name} are SKIPPED. Install it with: ${options.installHint}\n`,
    );
    return { endpoint: '', stop: async () => undefined };
  }
}
