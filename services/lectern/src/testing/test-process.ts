import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Helpers for tests that run the real `lectern` command as a child process. */
export const cliPath = fileURLToPath(new URL('../cli.ts', import.meta.url));

export interface StartedServer {
  readonly child: ChildProcess;
  /** The `start --json` summary line. */
  readonly summary: {
    data_dir: string;
    urls: Record<string, string>;
    demo: { project_id: string; keys: { id: string; kind: string; api_key: string }[] } | null;
  };
  /** Resolves with the exit code (or signal) once the process ended. */
  readonly exited: Promise<number | string>;
}

export function exitOf(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
}

/** Runs `lectern start --json --port-base 0 …` (with `env` added to the environment) and waits for its summary line. */
export async function startServer(
  dataDir: string,
  extra: readonly string[] = [],
  options: { env?: Record<string, string> } = {},
): Promise<StartedServer> {
  const child = spawn(process.execPath, [cliPath, 'start', '--json', '--port-base', '0', '--data-dir', dataDir, ...extra], {
    env: { ...process.env, LECTERN_LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = exitOf(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const summary = await new Promise<StartedServer['summary']>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{"data_dir"')) resolve(JSON.parse(line) as StartedServer['summary']);
    });
    void exited.then((code) => reject(new Error(`lectern start exited (${code}) before it was ready:\n${stderr}`)));
  });
  return { child, summary, exited };
}

/** Runs a CLI command to completion. */
export async function runCommand(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await exitOf(child);
  return { code: typeof code === 'number' ? code : -1, stdout, stderr };
}
