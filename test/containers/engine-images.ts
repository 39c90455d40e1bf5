import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { installCommand, installedClasspath, installedMinio } from '../engines/engine-install.ts';
import { repoRoot } from '../cluster/service-process.ts';

/**
 * Container images of the test engines, built on this machine from the same artifacts the scripts
 * install for the host-process engines (docs/faults.md): PostgreSQL from Debian's packages,
 * Kafka and OpenSearch from the Maven jars in ~/.m2 on Debian's JDK, MinIO from the binary
 * `go install` built. Every image is built FROM the base image made here with debootstrap
 * (`lectern-base:bookworm`, scripts/lib/containers.sh), never pulled. An image is tagged with the
 * hash of everything that goes into it, so it is built once per machine and rebuilt only when an
 * input changes. Builds run under `nice -n 19` (other work on the machine keeps priority).
 */

export const baseImage = process.env['LECTERN_BASE_IMAGE'] ?? 'lectern-base:bookworm';

export type EngineImage = 'postgres' | 'kafka' | 'opensearch' | 'minio';

/** Whether the Docker daemon answers and holds the base image; else why not (tests skip, loudly). */
export function containerEngineProblem(): string | undefined {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
  if (info.status !== 0) return `no Docker daemon answers (${(info.stderr || info.error?.message || '').trim()})`;
  if (!imageExists(baseImage)) return `the base image ${baseImage} is missing (scripts/lib/containers.sh makes it)`;
  if (!installedClasspath('kafka')) return `Kafka is not installed; run: ${installCommand('kafka')}`;
  if (!installedClasspath('opensearch')) return `OpenSearch is not installed; run: ${installCommand('opensearch')}`;
  if (!installedMinio()) return `MinIO is not installed; run: ${installCommand('minio')}`;
  return undefined;
}

function imageExists(tag: string): boolean {
  return spawnSync('docker', ['image', 'inspect', tag], { stdio: 'ignore' }).status === 0;
}

/** One file of a build context: its name in the context and where it comes from (or its text). */
interface ContextFile {
  readonly name: string;
  readonly from?: string;
  readonly text?: string;
}

interface ImageRecipe {
  readonly dockerfile: string;
  readonly files: readonly ContextFile[];
  /** Images this one is built FROM, built first. */
  readonly parents: readonly (() => Promise<string>)[];
}

const jvmDockerfile = (base: string) => `FROM ${base}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \\
      openjdk-17-jdk-headless >/dev/null && rm -rf /var/lib/apt/lists/*
`;

const postgresDockerfile = (base: string) => `FROM ${base}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \\
      postgresql-15 >/dev/null && rm -rf /var/lib/apt/lists/*
COPY postgres-start.sh /usr/local/bin/postgres-start.sh
RUN chmod 755 /usr/local/bin/postgres-start.sh && mkdir -p /pgdata && chown postgres:postgres /pgdata
USER postgres
ENTRYPOINT ["/usr/local/bin/postgres-start.sh"]
`;

// initdb on the first start only: a restarted container keeps its data directory.
const postgresStart = `#!/bin/sh
set -e
bin=/usr/lib/postgresql/15/bin
if [ ! -s /pgdata/data/PG_VERSION ]; then
  "$bin/initdb" -D /pgdata/data -U lectern --auth=trust -E UTF8 --no-locale >/dev/null
  echo "host all all 0.0.0.0/0 trust" >> /pgdata/data/pg_hba.conf
fi
exec "$bin/postgres" -D /pgdata/data -c listen_addresses='*' -c max_connections=200 -k /tmp
`;

const kafkaDockerfile = (jvm: string) => `FROM ${jvm}
COPY jars/ /opt/kafka/jars/
COPY classpath kafka-log4j2.xml kafka-start.sh /opt/kafka/
RUN chmod 755 /opt/kafka/kafka-start.sh
ENTRYPOINT ["/opt/kafka/kafka-start.sh"]
`;

// The broker advertises the container's own address, which the test keeps across a network cut.
const kafkaStart = `#!/bin/sh
set -e
ip=$(hostname -i | cut -d' ' -f1)
mkdir -p /var/kafka
cat > /var/kafka/server.properties <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:9093
listeners=PLAINTEXT://0.0.0.0:9092,CONTROLLER://127.0.0.1:9093
advertised.listeners=PLAINTEXT://$ip:9092
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=/var/kafka/data
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
num.partitions=1
EOF
jvm="-Xms128m -Xmx512m -Dkafka.logs.dir=/var/kafka/logs -Dlog4j2.configurationFile=/opt/kafka/kafka-log4j2.xml -cp $(cat /opt/kafka/classpath)"
if [ ! -d /var/kafka/data ]; then
  java $jvm kafka.tools.StorageTool format --cluster-id=bGVjdGVybi1mYXVsdHMtaw -c /var/kafka/server.properties
fi
exec java $jvm kafka.Kafka /var/kafka/server.properties
`;

// The broker's log on stdout (`docker logs`), where the readiness wait reads "Kafka Server started".
const kafkaLog4j = `<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="warn">
  <Appenders><Console name="out" target="SYSTEM_OUT"><PatternLayout pattern="[%d] %p %m (%c)%n"/></Console></Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="out"/></Root>
    <Logger name="kafka.request.logger" level="warn"/>
    <Logger name="org.apache.kafka.storage.internals.log" level="warn"/>
    <Logger name="kafka.log.LogCleaner" level="warn"/>
  </Loggers>
</Configuration>
`;

const openSearchDockerfile = (jvm: string) => `FROM ${jvm}
COPY jars/ /opt/opensearch/jars/
COPY classpath OpenSearchNode.java /opt/opensearch/
RUN useradd --system --home-dir /var/opensearch --create-home opensearch
USER opensearch
ENTRYPOINT ["sh", "-c", "exec java -Xms512m -Xmx512m -Dfile.encoding=UTF-8 -Djava.awt.headless=true \\
  -Dlog4j2.formatMsgNoLookups=true -XX:+UseG1GC -Dlectern.network.host=0.0.0.0 \\
  -cp $(cat /opt/opensearch/classpath) /opt/opensearch/OpenSearchNode.java /var/opensearch 9200 9300"]
`;

const minioDockerfile = (base: string) => `FROM ${base}
COPY minio /usr/local/bin/minio
ENV MINIO_BROWSER=off MINIO_UPDATE=off MINIO_CALLHOME_ENABLE=off
ENTRYPOINT ["/usr/local/bin/minio", "server", "/data", "--address", ":9000"]
`;

/** A Maven classpath as context files (`jars/NNN-name.jar`) and the in-image classpath. */
function jarFiles(engine: 'kafka' | 'opensearch', dir: string): ContextFile[] {
  const classpath = installedClasspath(engine);
  if (!classpath) throw new Error(`${engine} is not installed; run: ${installCommand(engine)}`);
  const jars = classpath.split(delimiter).filter(Boolean);
  const names = jars.map((jar, i) => `jars/${String(i).padStart(3, '0')}-${basename(jar)}`);
  return [
    ...jars.map((from, i) => ({ name: names[i]!, from })),
    { name: 'classpath', text: names.map((n) => `${dir}/${n}`).join(':') },
  ];
}

const engineFile = (...path: string[]) => join(repoRoot, 'test', 'engines', ...path);

function recipe(engine: EngineImage | 'jvm'): ImageRecipe {
  switch (engine) {
    case 'jvm':
      return { dockerfile: jvmDockerfile(baseImage), files: [], parents: [] };
    case 'postgres':
      return {
        dockerfile: postgresDockerfile(baseImage),
        files: [{ name: 'postgres-start.sh', text: postgresStart }],
        parents: [],
      };
    case 'minio':
      return {
        dockerfile: minioDockerfile(baseImage),
        files: [{ name: 'minio', from: installedMinio()! }],
        parents: [],
      };
    case 'kafka':
      return {
        dockerfile: kafkaDockerfile('{jvm}'),
        files: [
          ...jarFiles('kafka', '/opt/kafka'),
          { name: 'kafka-log4j2.xml', text: kafkaLog4j },
          { name: 'kafka-start.sh', text: kafkaStart },
        ],
        parents: [() => ensureImage('jvm')],
      };
    case 'opensearch':
      return {
        dockerfile: openSearchDockerfile('{jvm}'),
        files: [
          ...jarFiles('opensearch', '/opt/opensearch'),
          { name: 'OpenSearchNode.java', from: engineFile('java', 'OpenSearchNode.java') },
        ],
        parents: [() => ensureImage('jvm')],
      };
  }
}

const built = new Map<string, Promise<string>>();

/**
 * The tag of an engine's image, built first when this machine has no image of these exact inputs.
 * Prints what it builds and how long it took.
 */
export function ensureImage(engine: EngineImage | 'jvm'): Promise<string> {
  let pending = built.get(engine);
  if (!pending) {
    pending = buildImage(engine);
    built.set(engine, pending);
  }
  return pending;
}

async function buildImage(engine: EngineImage | 'jvm'): Promise<string> {
  const r = recipe(engine);
  const parents = await Promise.all(r.parents.map((p) => p()));
  const dockerfile = parents.reduce((text, parent) => text.replace('{jvm}', parent), r.dockerfile);
  const hash = createHash('sha256').update(baseImageId()).update(dockerfile);
  for (const file of r.files) {
    hash.update(file.name);
    // Jars in ~/.m2 never change under one version: name and size key them; small files, content.
    if (file.text !== undefined) hash.update(file.text);
    else if (statSync(file.from!).size > 1_000_000) hash.update(`${file.from}:${statSync(file.from!).size}`);
    else hash.update(readFileSync(file.from!));
  }
  const tag = `lectern-engine-${engine}:${hash.digest('hex').slice(0, 12)}`;
  if (imageExists(tag)) return tag;
  const context = mkdtempSync(join(tmpdir(), `lectern-image-${engine}-`));
  try {
    writeFileSync(join(context, 'Dockerfile'), dockerfile);
    mkdirSync(join(context, 'jars'), { recursive: true });
    for (const file of r.files) {
      const target = join(context, file.name);
      if (file.text !== undefined) writeFileSync(target, file.text);
      else {
        try {
          linkSync(file.from!, target);
        } catch {
          copyFileSync(file.from!, target);
        }
      }
    }
    const began = Date.now();
    console.log(`[images] building ${tag} (first run on this machine)`);
    // Host networking: apt inside the build reaches Debian's mirror as the host does.
    await run('nice', ['-n', '19', 'docker', 'build', '--network', 'host', '-q', '-t', tag, context]);
    console.log(`[images] ${tag} built in ${Math.round((Date.now() - began) / 1000)} s`);
    return tag;
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

function baseImageId(): string {
  return spawnSync('docker', ['image', 'inspect', '--format', '{{.Id}}', baseImage], {
    encoding: 'utf8',
  }).stdout.trim();
}

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${output.slice(-4000)}`)),
    );
  });
}
