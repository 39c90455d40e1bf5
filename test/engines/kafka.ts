import { execFile as execFileCb } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runDir, tailOf, type RunningEngine } from './engine.ts';
import { installCommand, installedClasspath } from './engine-install.ts';
import { spawnEngine, stopEngine, waitUntilReady } from './engine-process.ts';
import { freePort } from './postgres.ts';

const execFile = promisify(execFileCb);
const log4jConfig = join(dirname(fileURLToPath(import.meta.url)), 'kafka-log4j2.xml');

/** JVM options shared by the storage tool and the broker: a small heap is plenty for tests. */
function jvmOptions(dir: string): string[] {
  return ['-Xms128m', '-Xmx512m', `-Dkafka.logs.dir=${join(dir, 'logs')}`, `-Dlog4j2.configurationFile=${log4jConfig}`];
}

/**
 * A single-node Apache Kafka 4 in KRaft mode (one process is both broker and controller) on
 * 127.0.0.1, from the Maven Central jars: `kafka.tools.StorageTool format`, then `kafka.Kafka`.
 * Data and logs live in a fresh temporary directory; the logs are kept when a start fails.
 * The endpoint is the bootstrap broker list, `127.0.0.1:<port>`.
 */
export async function startKafka(): Promise<RunningEngine> {
  const classpath = installedClasspath('kafka');
  if (!classpath) throw new Error(`Kafka is not installed; run: ${installCommand('kafka')}`);
  const dir = runDir('kafka');
  const [port, controllerPort] = [await freePort(), await freePort()];
  const properties = join(dir, 'server.properties');
  writeFileSync(properties, serverProperties({ dir, port, controllerPort }));
  const jvm = [...jvmOptions(dir), '-cp', classpath];

  // A KRaft log directory must be formatted with a cluster id (16 random bytes, base64url) first.
  const clusterId = randomBytes(16).toString('base64url');
  try {
    await execFile('java', [...jvm, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', properties]);
  } catch (error) {
    throw new Error(
      `Kafka storage format failed: ${(error as Error).message}\n${tailOf(join(dir, 'logs', 'server.log'))}`,
      {
        cause: error,
      },
    );
  }

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
    logs: [engine.log, join(dir, 'logs', 'server.log')],
    isReady: async () =>
      tailOf(join(dir, 'logs', 'server.log'), 200).includes('Kafka Server started') && (await accepts(port)),
  });
  return {
    endpoint: `127.0.0.1:${port}`,
    pid: engine.child.pid,
    dir,
    stop: () => stopEngine(engine),
  };
}

function serverProperties(options: { dir: string; port: number; controllerPort: number }): string {
  const { dir, port, controllerPort } = options;
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
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

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
