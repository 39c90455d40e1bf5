import { ConfigError, describeSettings, loadConfig, type ConfigOf, type Setting } from '@lectern/config';
import { livenessOfProcess } from './liveness.ts';
import { createLogger, type Logger } from './logger.ts';
import { serverOptionsOf, serverSettings, type ServerOptions } from './server-settings.ts';
import { attachToSupervisor, isSupervisedChild, superviseSelf, supervisorMarginMs } from './supervisor.ts';

/** What a service's start function gets besides its config. */
export interface ServiceStart {
  readonly logger: Logger;
  /** Registers a closer; closers run in reverse order on SIGTERM/SIGINT or when the start fails. */
  onStop(close: () => Promise<void>): void;
  /** Runs one start step; a failure names the step and what to check (`what`). */
  step<T>(what: string, work: () => Promise<T>): Promise<T>;
  /** The listeners' slow-client timeouts and shutdown grace (`serverSettings`), for `listen` and `listenStep`. */
  readonly server: ServerOptions;
}

/**
 * The `main.ts` of a cluster-shape service: `--help` prints the settings table; the config comes
 * from the environment only (a bad one: every problem listed, exit 2); `start` wires the service
 * (a failure: what to fix, exit 1); SIGTERM or SIGINT runs the closers in reverse and exits 0
 * (a second signal exits at once). Every service also reads `serverSettings` (timeouts, the
 * shutdown grace): when the closers have not finished within the grace period plus a margin,
 * the process exits 1 anyway. With `isSupervised` the service runs under a supervisor process
 * (`superviseSelf`) that also stops it when its event loop is stuck; in Kubernetes the kubelet
 * plays that part (SIGKILL after terminationGracePeriodSeconds), so the cluster mains do not.
 */
export async function runServiceMain<
  S extends Record<string, Setting<unknown>> & { logLevel: Setting<unknown> },
>(options: {
  name: string;
  summary: string;
  settings: S;
  start: (config: ConfigOf<S>, service: ServiceStart) => Promise<void>;
  isSupervised?: boolean;
}): Promise<void> {
  const { name } = options;
  const settings = { ...options.settings, ...serverSettings };
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(
      `lectern ${name}: ${options.summary}\n\nSettings (environment only):\n${describeSettings(settings)}\n`,
    );
    process.exit(0);
  }
  let config: ConfigOf<S> & ServerOptions;
  try {
    config = loadConfig({ settings, env: process.env }) as ConfigOf<S> & ServerOptions;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`lectern ${name}: ${error.message}\nRun with --help for every setting.\n`);
    process.exit(2);
  }
  if (options.isSupervised === true && !isSupervisedChild()) return superviseSelf({ name: `lectern ${name}` });
  const supervisor = attachToSupervisor({ graceMs: config.shutdownGraceMs });
  const logger = createLogger({ level: String(config.logLevel), name });
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse())
      await close().catch((err: unknown) => logger.error({ err }, 'close failed'));
  };
  const service: ServiceStart = {
    logger,
    onStop: (close) => closers.push(close),
    server: serverOptionsOf(config),
    async step(what, work) {
      try {
        return await work();
      } catch (error) {
        throw new Error(`${what}: ${(error as Error).message ?? String(error)}`, { cause: error });
      }
    },
  };
  try {
    await options.start(config, service);
  } catch (error) {
    logger.fatal({ err: error }, `${name} could not start: ${(error as Error).message}`);
    await closeAll();
    process.exit(1);
  }
  // Liveness judges the running service, not its start.
  livenessOfProcess().reset();
  let isStopping = false;
  const shutdown = (signal: string) => {
    supervisor.acknowledgeStop();
    if (isStopping) process.exit(1);
    isStopping = true;
    logger.info({ signal }, `${name} stopping`);
    const deadlineMs = config.shutdownGraceMs + supervisorMarginMs;
    setTimeout(() => {
      logger.error({ signal, deadlineMs }, `${name} did not stop within ${deadlineMs} ms; exiting`);
      process.exit(1);
    }, deadlineMs);
    closeAll().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
