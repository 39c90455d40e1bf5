import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running engine: where to reach it and how to stop it. */
export interface RunningEngine {
  /** Connection details handed to tests through vitest's `provide`. */
  readonly endpoint: string;
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
    console.log(`[engines] ${options.name} ready at ${engine.endpoint} in ${Date.now() - began} ms`);
    return engine;
  } catch (error) {
    const message = `[engines] ${options.name} could not start: ${(error as Error).message}`;
    if (isEngineRequired) throw new Error(`${message}\nInstall it with: ${options.installHint}`, { cause: error });
    console.warn(
      `\n!!! ${message}\n!!! Tests that need ${options.name} are SKIPPED. Install it with: ${options.installHint}\n`,
    );
    return { endpoint: '', stop: async () => undefined };
  }
}
