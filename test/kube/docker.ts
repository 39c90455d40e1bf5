import { execFile as execFileCb, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);

/** `docker <args>`; resolves with stdout, rejects with stderr in the message. */
export async function docker(args: readonly string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await execFile('docker', args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`docker ${args.join(' ')} failed: ${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}`, {
      cause: error,
    });
  }
}

/**
 * The hardening the chart's pods get (charts/lectern values.yaml securityContext), as `docker run`
 * flags: read-only root filesystem with a tmpfs at /tmp, every capability dropped, no new privileges.
 */
export const hardened = [
  '--read-only',
  '--tmpfs',
  '/tmp',
  '--cap-drop',
  'ALL',
  '--security-opt',
  'no-new-privileges',
] as const;

/** `docker run --rm …`, to completion: its exit code and everything it wrote (stdout then stderr). */
export function runToCompletion(
  args: readonly string[],
  timeoutMs = 120_000,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', ['run', '--rm', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** HTTP status of a GET, 0 when nothing answered. */
export async function statusOf(url: string): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

/** True while the container exists and runs. */
async function isRunning(name: string): Promise<boolean> {
  const state = await docker(['inspect', '--format', '{{.State.Running}}', name]).catch(() => 'false');
  return state.trim() === 'true';
}

/**
 * Polls `url` until it answers 200; throws with the container's last log lines when the container
 * stops first or `timeoutMs` passes. Resolves with the milliseconds since `since`.
 */
export async function waitFor200(name: string, url: string, since: number, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await statusOf(url)) === 200) return Date.now() - since;
    if (!(await isRunning(name))) break;
    await sleep(100);
  }
  const logs = await containerLogs(name, 30);
  throw new Error(`container ${name} never answered 200 at ${url}; its last lines:\n${logs}`);
}

/** The last `lines` lines a container wrote, stdout and stderr interleaved as docker keeps them. */
export async function containerLogs(name: string, lines: number): Promise<string> {
  try {
    const { stdout, stderr } = await execFile('docker', ['logs', '--tail', String(lines), name]);
    return `${stdout}${stderr}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Removes containers by name, running or not; absent ones are fine. */
export async function removeContainers(names: readonly string[]): Promise<void> {
  if (names.length > 0) await docker(['rm', '--force', ...names]).catch(() => undefined);
}
