import { execFile as execFileCb } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { runDir, tailOf, type RunningEngine } from './engine.ts';
import { installCommand, installedClasspath } from './engine-install.ts';
import { spawnEngine, stopEngine, waitUntilReady, type EngineProcess } from './engine-process.ts';
import { freePorts } from './postgres.ts';

const execFile = promisify(execFileCb);
const log4jConfig = join(dirname(fileURLToPath(import.meta.url)), 'kafka-log4j2.xml');

/** JVM options shared by the storage tool and the broker: a small heap is plenty for tests. */
function jvmOptions(dir: string): string[] {
  return ['-Xms128m', '-Xmx512m', `-Dkafka.logs.dir=${join(dir, 'logs')}`, `-Dlog4j2.configurationFile=${log4jConfig}`];
}

/** A Kafka broker that can be restarted in place: same data directory, same ports. */
export interface RestartableKafka extends RunningEngine {
  /**
   * Stops the broker process (SIGTERM, or SIGKILL when `hard`), leaves it down `downMs` (default
   * 0), starts it again on the same properties and waits until it is ready.
   */
  restart(options?: { hard?: boolean; downMs?: number }): Promise<void>;
}

/**
 * A single-node Apache Kafka 4 in KRaft mode (one process is both broker and controller) on
 * 127.0.0.1, from the Maven Central jars: `kafka.tools.StorageTool format`, then `kafka.Kafka`.
 * Data and logs live in a fresh temporary directory; the logs are kept when a start fails.
 * The endpoint is the bootstrap broker list, `127.0.0.1:<port>`. `host`: the address the broker
 * listens on and advertises instead (test/kube: the node's address pods reach).
 */
export async function startKafka(options: { host?: string } = {}): Promise<RestartableKafka> {
  const host = options.host ?? '127.0.0.1';
  const classpath = installedClasspath('kafka');
  if (!classpath) throw new Error(`Kafka is not installed; run: ${installCommand('kafka')}`);
  const dir = runDir('kafka');
  const [port, controllerPort] = await freePorts(2);
  const properties = join(dir, 'server.properties');
  writeFileSync(properties, serverProperties({ dir, host, port, controllerPort }));
  const jvm = [...jvmOptions(dir), '-cp', classpath];

  // A KRaft log directory must be formatted with a cluster id (16 random bytes, base64url) first.
  const clusterId = randomBytes(16).toString('base64url');
  try {
    // `--cluster-id=…` in one argument: a base64url id may start with '-' (1 in 64), which the
    // tool's argument parser would take for an option after a separate `-t`.
    await execFile('java', [
      ...jvm,
      'kafka.tools.StorageTool',
      'format',
      `--cluster-id=${clusterId}`,
      '-c',
      properties,
    ]);
  } catch (error) {
    throw new Error(
      `Kafka storage format failed: ${(error as Error).message}\n${tailOf(join(dir, 'logs', 'server.log'))}`,
      {
        cause: error,
      },
    );
  }

  const launch = async (): Promise<EngineProcess> => {
    const serverLog = join(dir, 'logs', 'server.log');
    // A restart appends to the same log: only lines written after this launch count.
    const logStart = existsSync(serverLog) ? statSync(serverLog).size : 0;
    const engine = spawnEngine({
      command: 'java',
      args: [...jvm, 'kafka.Kafka', properties],
      log: join(dir, 'kafka.out'),
      cwd: dir,
    });
    // Ready means the broker has registered with its controller and accepts connections: the
    // server logs "Kafka Server started" only after both.
    await waitUntilReady({
      engine,
      what: 'Kafka',
      timeoutMs: 90_000,
      logs: [engine.log, serverLog],
      isReady: async () =>
        logSince(serverLog, logStart).includes('Kafka Server started') && (await accepts(host, port)),
    });
    return engine;
  };

  let engine = await launch();
  return {
    endpoint: `${host}:${port}`,
    get pid() {
      return engine.child.pid;
    },
    dir,
    stop: () => stopEngine(engine),
    async restart(options = {}) {
      await stopEngine(engine, options.hard ? 0 : undefined);
      await sleep(options.downMs ?? 0);
      engine = await launch();
    },
  };
}

/** What was appended to a file after `offset` bytes. */
function logSince(path: string, offset: number): string {
  if (!existsSync(path)) return '';
  return readFileSync(path).subarray(offset).toString('utf8');
}

function serverProperties(options: { dir: string; host: string; port: number; controllerPort: number }): string {
  const { dir, host, port, controllerPort } = options;
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://${host}:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://${host}:${port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${join(dir, 'data')}`,
    // One node: every internal topic has a single replica.
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=4',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    // Consumer groups form at once instead of waiting 3 s for more members.
    'group.initial.rebalance.delay.ms=0',
    'auto.create.topics.enable=true',
    'num.partitions=1',
    '',
  ].join('\n');
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
