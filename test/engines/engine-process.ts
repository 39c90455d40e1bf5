import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tailOf } from './engine.ts';

/** An engine server process whose stdout and stderr go to a log file in its run directory. */
export interface EngineProcess {
  readonly child: ChildProcess;
  readonly log: string;
  /** Set once the process has exited, with its exit code or signal. */
  exited: string | undefined;
}

/**
 * Starts a server detached from vitest's terminal, output appended to `log`. The process is put
 * in its own process group so that a stop reaches the children it may fork.
 */
export function spawnEngine(options: {
  command: string;
  args: readonly string[];
  log: string;
  cwd: string;
  env?: Record<string, string>;
}): EngineProcess {
  const fd = openSync(options.log, 'a');
  try {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', fd, fd],
      detached: true,
    });
    const engine: EngineProcess = { child, log: options.log, exited: undefined };
    child.once('exit', (code, signal) => {
      engine.exited = signal ? `signal ${signal}` : `exit code ${code}`;
    });
    child.once('error', (error) => {
      engine.exited = `spawn error: ${error.message}`;
    });
    return engine;
  } finally {
    closeSync(fd);
  }
}

/**
 * Polls `isReady` until it answers true. Fails early, quoting the log, when the process exits;
 * fails after `timeoutMs` otherwise. Errors thrown by `isReady` count as "not yet".
 */
export async function waitUntilReady(options: {
  engine: EngineProcess;
  what: string;
  timeoutMs: number;
  isReady: () => Promise<boolean>;
  logs?: readonly string[];
}): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const logs = options.logs ?? [options.engine.log];
  while (Date.now() < deadline) {
    if (options.engine.exited !== undefined) {
      throw new Error(`${options.what} exited during start (${options.engine.exited}).\n${describeLogs(logs)}`);
    }
    if (await options.isReady().catch(() => false)) return;
    await sleep(250);
  }
  await stopEngine(options.engine);
  throw new Error(`${options.what} was not ready within ${options.timeoutMs} ms.\n${describeLogs(logs)}`);
}

/** SIGTERM to the process group, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopEngine(engine: EngineProcess, graceMs = 15_000): Promise<void> {
  const pid = engine.child.pid;
  if (pid === undefined || engine.exited !== undefined) return;
  const gone = new Promise<void>((resolve) => engine.child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** True when an HTTP GET on `url` answers with a status accepted by `isOk` (default: 2xx). */
export async function httpAnswers(url: string, isOk = (status: number) => status >= 200 && status < 300) {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await response.body?.cancel();
  return isOk(response.status);
}

function describeLogs(logs: readonly string[]): string {
  return logs.map((log) => `--- last lines of ${log} (kept):\n${tailOf(log, 40)}`).join('\n');
}
