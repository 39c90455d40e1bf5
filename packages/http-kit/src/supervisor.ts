import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * A server whose event loop is stuck cannot run its SIGTERM handler, so it must be stopped from
 * outside. The supervisor is a second, tiny process that only forwards signals: it runs this same
 * command again as its child (the server), with stdio inherited, and
 *
 * - forwards the first SIGTERM, SIGINT or SIGHUP (as SIGTERM) to the child;
 * - SIGKILLs the child when it has not acknowledged the signal within `ackMs` (its loop is stuck:
 *   the acknowledgement is sent by the child's signal handler), or has not exited within the
 *   grace period plus `marginMs` (its closers hang), or on a second signal. The child reports its
 *   grace period once it has read its settings, so the supervisor itself reads none and loads no
 *   service code (import it as `@lectern/http-kit/supervisor`: this file depends on Node only);
 * - exits with the child's exit code (128 + the signal's number when the child died of one).
 *
 * The child runs in its own process group, so an interactive Ctrl+C reaches the supervisor only
 * and is forwarded once. The child never outlives its supervisor: when the IPC channel closes
 * (the supervisor was killed) it kills itself at once, as a SIGKILL to both would have.
 */
const childMarker = 'LECTERN_SUPERVISED_CHILD';

/** The grace period assumed until the child reports its own (LECTERN_SHUTDOWN_GRACE_MS's default). */
const defaultGraceMs = 10_000;
/** Milliseconds a child with a working event loop needs at most to acknowledge a signal. */
export const supervisorAckMs = 3000;
/** Milliseconds past the grace period left for closing the store and the rest. */
export const supervisorMarginMs = 5000;

/** The semi-space of the server's young generation, in MiB, unless LECTERN_V8_SEMI_SPACE_MB says otherwise. */
export const defaultSemiSpaceMib = 4;

/**
 * V8 grows the young generation of a busy server to its maximum (three semi-spaces of 16 MiB or
 * more on 64-bit), resident from then on: up to ~100 MiB more RSS for the embedded server under
 * load in some runs (issue 35: 429–568 MiB uncapped, 441–473 capped). Objects of one request die young either way, so a small semi-space costs little
 * (measured: no change in cache-hit throughput at 4 MiB). LECTERN_V8_SEMI_SPACE_MB sets it
 * (0: V8's default); a --max-semi-space-size in NODE_OPTIONS or the command wins over both.
 */
export function youngGenerationArgs(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): string[] {
  const given = [...execArgv, env['NODE_OPTIONS'] ?? ''].some((a) => a.includes('--max-semi-space-size'));
  const raw = env['LECTERN_V8_SEMI_SPACE_MB'];
  const mib = raw === undefined || raw.trim() === '' ? defaultSemiSpaceMib : Number(raw);
  if (!Number.isInteger(mib) || mib < 0) {
    process.stderr.write(
      `LECTERN_V8_SEMI_SPACE_MB must be a whole number of MiB (0: V8's default); ignoring '${raw}'.\n`,
    );
    return [];
  }
  if (given || mib === 0) return [];
  return [`--max-semi-space-size=${mib}`];
}

/** True in the process a supervisor started (the server itself). */
export function isSupervisedChild(): boolean {
  return process.env[childMarker] === '1' && typeof process.send === 'function';
}

/**
 * Runs this process's own command again as a supervised child and supervises it until it exits;
 * the returned promise never settles (the supervisor exits with the child).
 */
export function superviseSelf(options: {
  ackMs?: number;
  marginMs?: number;
  /** What a line on stderr calls the child ("lectern", "lectern delivery"). */
  name: string;
}): Promise<never> {
  const ackMs = options.ackMs ?? supervisorAckMs;
  const child = spawn(process.execPath, [...youngGenerationArgs(), ...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [childMarker]: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  let isAcknowledged = false;
  let graceMs = defaultGraceMs;
  let killedBecause: string | null = null;
  const kill = (reason: string) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killedBecause ??= reason;
    process.stderr.write(`${options.name}: ${reason}; killing it (SIGKILL).\n`);
    child.kill('SIGKILL');
  };
  child.on('message', (message: SupervisorMessage) => {
    if (message.type === 'stopping') isAcknowledged = true;
    if (message.type === 'grace') graceMs = message.graceMs;
  });
  let signals = 0;
  const forward = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) return kill(`second ${signal}`);
    child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    setTimeout(() => {
      if (!isAcknowledged) kill(`the server did not answer ${signal} within ${ackMs} ms (its event loop is blocked)`);
    }, ackMs).unref();
    const deadlineMs = graceMs + (options.marginMs ?? supervisorMarginMs);
    setTimeout(() => kill(`the server did not stop within ${deadlineMs} ms of ${signal}`), deadlineMs).unref();
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, forward);
  return new Promise<never>(() => {
    child.once('error', (error) => {
      process.stderr.write(`${options.name}: cannot start the server process: ${error.message}\n`);
      process.exit(1);
    });
    child.once('exit', (code, signal) => {
      if (killedBecause !== null) process.exit(1);
      process.exit(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
    });
  });
}

/** What the child tells its supervisor over IPC. */
type SupervisorMessage = { type: 'grace'; graceMs: number } | { type: 'stopping' };

/**
 * In a supervised child: reports the grace period, dies with its supervisor, and returns what
 * tells the supervisor the signal was received (call it first thing in the signal handler).
 * Outside a supervisor: no-ops.
 */
export function attachToSupervisor(options: { graceMs: number }): { acknowledgeStop(): void } {
  if (!isSupervisedChild()) return { acknowledgeStop: () => {} };
  const send = (message: SupervisorMessage) => {
    if (process.connected) process.send?.(message);
  };
  send({ type: 'grace', graceMs: options.graceMs });
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  // The channel alone must not keep the server alive once everything else closed.
  process.channel?.unref();
  return {
    acknowledgeStop: () => send({ type: 'stopping' }),
  };
}
