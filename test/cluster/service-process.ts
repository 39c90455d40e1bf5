import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The repository root, where every service's `src/main.ts` lives. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One service of the cluster shape running as its own Node process. */
export interface ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Every line the process wrote (stdout and stderr), in order. */
  readonly lines: readonly string[];
  /** Set once the process has exited: its exit code or signal. */
  readonly exited: string | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null: killed by a signal). */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Starts `node services/<service>/src/main.ts` with `env` added to this process's environment.
 * Output is kept in `lines` and, when `onLine` is given, passed on line by line.
 */
export function startServiceProcess(options: {
  name: string;
  service: 'management' | 'indexer' | 'delivery' | 'recommendations';
  env: Record<string, string>;
  onLine?: (name: string, line: string) => void;
}): ServiceProcess {
  const main = join(repoRoot, 'services', options.service, 'src', 'main.ts');
  const child = spawn(process.execPath, [main], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a Ctrl+C in the terminal reaches the parent only, which stops the
    // services in order (a second signal would make a service exit at once).
    detached: true,
  });
  const lines: string[] = [];
  let exited: string | undefined;
  let exitCode: number | null = null;
  const gone = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = signal ? `signal ${signal}` : `exit code ${code}`;
      exitCode = code;
      resolve();
    });
    child.once('error', (error) => {
      exited = `spawn error: ${error.message}`;
      resolve();
    });
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      options.onLine?.(options.name, line);
    });
  }
  return {
    name: options.name,
    child,
    lines,
    get exited() {
      return exited;
    },
    async stop(graceMs = 15_000) {
      if (exited === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await gone;
        clearTimeout(timer);
      }
      return exitCode;
    },
  };
}

/** Polls `<url>/readyz` until it answers 200; fails at once when the process exits. */
export async function waitUntilReady(service: ServiceProcess, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.exited !== undefined) {
      throw new Error(
        `${service.name} exited during start (${service.exited}):\n${service.lines.slice(-20).join('\n')}`,
      );
    }
    const status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      async (r) => {
        await r.body?.cancel();
        return r.status;
      },
      () => 0,
    );
    if (status === 200) return;
    await sleep(200);
  }
  throw new Error(
    `${service.name} was not ready at ${url} within ${timeoutMs} ms:\n${service.lines.slice(-20).join('\n')}`,
  );
}
