import { randomInt } from 'node:crypto';
import {
  GenericContainer,
  Wait,
  getContainerRuntimeClient,
  type ContainerRuntimeClient,
  type StartedTestContainer,
} from 'testcontainers';
import { ensureImage } from './engine-images.ts';

/** MinIO's root user in the fault tests' container (reached only on a private Docker network). */
export const minioCredentials = { accessKey: 'lectern-faults', secretKey: 'lectern-faults-secret' } as const;

/** Size of the tmpfs MinIO stores its objects on, the volume the "fill a volume" test fills. */
export const blobVolumeMiB = 64;

/**
 * Runs `pause`, again while runc answers "unable to freeze": the cgroup freezer gives up when a
 * busy process (a JVM's threads in the middle of I/O) does not stop in time, and leaves the
 * container running, so trying again is safe. Seen once (session 43) in a run of the whole suite.
 */
async function freeze(pause: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await pause();
      return;
    } catch (error) {
      if (attempt >= 5 || !/unable to freeze/.test(String((error as Error)?.message))) throw error;
      console.warn(`[containers] pause: ${(error as Error).message}; trying again (${attempt})`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** One engine container on the fault network, at a fixed address the host's processes reach. */
export interface EngineContainer {
  readonly name: string;
  readonly container: StartedTestContainer;
  readonly ip: string;
  /** Takes the container off the network (its peers see connections time out or reset). */
  cut(): Promise<void>;
  /** Puts it back on the network at the same address. */
  heal(): Promise<void>;
  /** Freezes every process of the container (SIGSTOP through the cgroup freezer), then thaws it. */
  pause(): Promise<void>;
  unpause(): Promise<void>;
}

export interface EngineContainers {
  readonly postgres: EngineContainer;
  readonly kafka: EngineContainer;
  readonly opensearch: EngineContainer;
  readonly minio: EngineContainer;
  readonly postgresUrl: string;
  readonly kafkaBrokers: string;
  readonly searchUrl: string;
  readonly s3Endpoint: string;
  /** Stops and removes every container, then the network. */
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL, Kafka, OpenSearch and MinIO, each in a container of an image built here
 * (engine-images.ts), on a Docker bridge network of its own with a fixed subnet: the host routes
 * to it, so the Lectern services (host processes) reach each engine at its container address,
 * and a container cut off the network comes back at the same address (Kafka advertises it).
 */
export async function startEngineContainers(): Promise<EngineContainers> {
  const [postgresImage, kafkaImage, openSearchImage, minioImage] = await Promise.all([
    ensureImage('postgres'),
    ensureImage('kafka'),
    ensureImage('opensearch'),
    ensureImage('minio'),
  ]);
  const client = await getContainerRuntimeClient();
  await removeLeftovers(client);
  const { network, name: networkName } = await createNetwork(client.network);
  const started: EngineContainer[] = [];
  const stop = async () => {
    await Promise.all(started.map((e) => e.container.stop({ remove: true, timeout: 2_000 }).catch(() => undefined)));
    await network.remove().catch(() => undefined);
  };
  // Docker gives each container an address of the network's subnet; since the subnet is the
  // network's own (not Docker's pool), a container put back after a cut can ask for it again.
  const run = async (name: string, image: string, ready: RegExp, tmpfs?: Record<string, string>) => {
    let definition = new GenericContainer(image)
      .withNetworkMode(networkName)
      .withName(`${networkName}-${name}`)
      .withLabels(ownerLabels)
      .withStartupTimeout(180_000)
      .withWaitStrategy(Wait.forLogMessage(ready))
      .withEnvironment({
        MINIO_ROOT_USER: minioCredentials.accessKey,
        MINIO_ROOT_PASSWORD: minioCredentials.secretKey,
      });
    if (tmpfs) definition = definition.withTmpFs(tmpfs);
    const container = await definition.start();
    const ip = container.getIpAddress(networkName);
    const docker = client.container.getById(container.getId());
    const e: EngineContainer = {
      name,
      container,
      ip,
      cut: () => network.disconnect({ Container: container.getId(), Force: true }),
      heal: () =>
        network.connect({ Container: container.getId(), EndpointConfig: { IPAMConfig: { IPv4Address: ip } } }),
      pause: () => freeze(() => docker.pause()),
      unpause: () => docker.unpause(),
    };
    started.push(e);
    return e;
  };
  try {
    const [postgres, kafka, opensearch, minio] = await Promise.all([
      run('postgres', postgresImage, /database system is ready to accept connections/),
      run('kafka', kafkaImage, /Kafka Server started/),
      run('opensearch', openSearchImage, /READY/),
      run('minio', minioImage, /API:/, { '/data': `rw,size=${blobVolumeMiB}m` }),
    ]);
    return {
      postgres,
      kafka,
      opensearch,
      minio,
      postgresUrl: `postgres://lectern@${postgres.ip}:5432/postgres`,
      kafkaBrokers: `${kafka.ip}:9092`,
      searchUrl: `http://${opensearch.ip}:9200`,
      s3Endpoint: `http://${minio.ip}:9000`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function createNetwork(networks: ContainerRuntimeClient['network']) {
  for (let attempt = 0; ; attempt += 1) {
    const prefix = `10.213.${randomInt(1, 250)}`;
    const name = `lectern-faults-${prefix.split('.')[2]}`;
    try {
      const network = await networks.create({
        Name: name,
        Driver: 'bridge',
        CheckDuplicate: true,
        IPAM: { Driver: 'default', Config: [{ Subnet: `${prefix}.0/24`, Gateway: `${prefix}.1` }] },
        Labels: ownerLabels,
      });
      return { network, name, prefix };
    } catch (error) {
      // Another run (or another network) holds this subnet: try another one.
      if (attempt >= 5) throw error;
    }
  }
}

/** Marks what this process made; a run killed before it could clean up is cleaned by the next. */
const ownerLabels = { 'org.lectern.test': 'faults', 'org.lectern.owner-pid': String(process.pid) };

/** Removes fault-test containers and networks whose owning test process is gone (no Ryuk here). */
async function removeLeftovers(client: ContainerRuntimeClient): Promise<void> {
  const isGone = (labels: Record<string, string> | undefined) => {
    const pid = Number(labels?.['org.lectern.owner-pid']);
    if (labels?.['org.lectern.test'] !== 'faults' || !Number.isInteger(pid)) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  const docker = client.container.dockerode;
  const filters = { label: ['org.lectern.test=faults'] };
  for (const info of await docker.listContainers({ all: true, filters })) {
    if (isGone(info.Labels))
      await client.container
        .getById(info.Id)
        .remove({ force: true })
        .catch(() => undefined);
  }
  for (const info of await docker.listNetworks({ filters })) {
    if (isGone(info.Labels))
      await client.network
        .getById(info.Id)
        .remove()
        .catch(() => undefined);
  }
}
