import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { startTestReceiver, type TestReceiver } from '@lectern/testing';
import { createProjectWithKeys, type ClusterProject } from '../cluster/admin.ts';
import { startCluster, type RunningCluster } from '../cluster/cluster.ts';
import { freePorts } from '../engines/postgres.ts';
import { minioCredentials, startEngineContainers, type EngineContainers } from './engine-containers.ts';

/**
 * What a fault test runs against: the four engines in containers (engine-containers.ts), the
 * cluster shape's services as host processes (Management with the outbox relay, the indexer, one
 * Delivery, the webhooks worker), one project, and a webhook on every taxonomy created that posts
 * to a receiver in this process, which counts deliveries per taxonomy.
 */
export interface FaultStack {
  readonly engines: EngineContainers;
  readonly cluster: RunningCluster;
  readonly project: ClusterProject;
  readonly receiver: TestReceiver;
  readonly topic: string;
  /** A Management API call on the project; the raw answer (status and parsed body), never throws on status. */
  manage(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  stop(): Promise<void>;
}

export async function startFaultStack(): Promise<FaultStack> {
  // Where the start's time goes, printed once it is up (the file's budget is about 3 minutes).
  const began = Date.now();
  const stages: string[] = [];
  const stage = (what: string, since: number) => stages.push(`${what} ${((Date.now() - since) / 1000).toFixed(1)} s`);
  const engines = await startEngineContainers();
  stage('engines in containers', began);
  const suffix = randomBytes(4).toString('hex');
  const operatorToken = randomBytes(24).toString('hex');
  const topic = `lectern.faults-${suffix}`;
  let cluster: RunningCluster | undefined;
  let receiver: TestReceiver | undefined;
  const stop = async () => {
    await cluster?.stop();
    await receiver?.close();
    await engines.stop();
  };
  try {
    let since = Date.now();
    await kafkaGroupsReady(engines.kafkaBrokers);
    stage('Kafka group coordinator', since);
    since = Date.now();
    const [management, indexer, delivery, preview, webhooks] = await freePorts(5);
    cluster = await startCluster({
      databaseUrl: engines.postgresUrl,
      kafkaBrokers: engines.kafkaBrokers,
      kafkaTopic: topic,
      searchUrl: engines.searchUrl,
      s3: { endpoint: engines.s3Endpoint, ...minioCredentials, bucket: `lectern-${suffix}` },
      operatorToken,
      ports: { management, indexer, deliveries: [{ delivery, preview }], webhooks },
      isWebhooksPrivateAllowed: true,
      logLevel: 'warn',
      // The write load is one client as fast as it can go: no per-key limits.
      env: {
        LECTERN_MANAGEMENT_PER_SECOND: '0',
        LECTERN_MANAGEMENT_PER_MINUTE: '0',
        LECTERN_MANAGEMENT_PER_HOUR: '0',
        LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
        LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '0',
      },
    });
    stage('services', since);
    const project = await createProjectWithKeys({
      managementUrl: cluster.managementUrl,
      operatorToken,
      name: 'Fault test',
      userEmail: 'faults@lectern.test',
    });
    receiver = await startTestReceiver();
    const base = `${cluster.managementUrl}/v2/projects/${project.projectId}`;
    const manage: FaultStack['manage'] = async (method, path, body) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${project.managementKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      let parsed: Record<string, unknown>;
      try {
        parsed = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        parsed = { unparsable: text.slice(0, 200) };
      }
      return { status: response.status, body: parsed };
    };
    const hook = await manage('POST', '/webhooks-vnext', {
      name: 'Fault receiver',
      url: receiver.url,
      secret: 'fault-secret',
      delivery_triggers: {
        slot: 'published',
        events: 'specific',
        taxonomy: { enabled: true, actions: [{ action: 'created' }] },
      },
    });
    if (hook.status !== 201) throw new Error(`webhook not created: ${hook.status} ${JSON.stringify(hook.body)}`);
    stage('in all', began);
    console.log(`[faults] stack started: ${stages.join(', ')}`);
    return { engines, cluster, project, receiver, topic, manage, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Waits until a fresh broker can coordinate consumer groups (its offsets topic exists): "Kafka
 * Server started" comes before that, and a service subscribing in between fails its start with
 * "Failed to find group coordinator". Joins a group on a topic of its own.
 */
async function kafkaGroupsReady(brokers: string): Promise<void> {
  const topic = 'faults-warm-up';
  const kafka = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
  const consumer = kafka.consumer({ groupId: 'faults-warm-up' });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.run({ eachMessage: async () => undefined });
    await Promise.race([joined, sleep(60_000).then(() => Promise.reject(new Error('Kafka: no group coordinator')))]);
  } finally {
    await consumer.disconnect();
  }
}

/** Every service's /readyz at this moment: name → status (0: no answer). */
export async function readiness(cluster: RunningCluster): Promise<Record<string, number>> {
  const urls: Record<string, string> = {
    management: cluster.managementUrl,
    indexer: cluster.indexerUrl,
    ...Object.fromEntries(cluster.deliveries.map((d) => [d.name, d.deliveryUrl])),
    ...(cluster.webhooksUrl ? { webhooks: cluster.webhooksUrl } : {}),
  };
  const entries = await Promise.all(
    Object.entries(urls).map(async ([name, url]) => {
      const status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
        async (r) => {
          await r.body?.cancel();
          return r.status;
        },
        () => 0,
      );
      return [name, status] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** The errors Management logged so far (type: message, first 200 characters), with their counts. */
export function managementErrors(stack: FaultStack): [string, number][] {
  const causes = new Map<string, number>();
  for (const line of stack.cluster.processes.find((p) => p.name === 'management')?.lines ?? []) {
    const match = /"level":50.*?"err":\{"type":"([^"]*)","message":"([^"]{0,200})/.exec(line);
    if (match) causes.set(`${match[1]}: ${match[2]}`, (causes.get(`${match[1]}: ${match[2]}`) ?? 0) + 1);
  }
  return [...causes];
}

/** Polls until `check` holds; resolves with the milliseconds it took, or throws after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<number> {
  const began = Date.now();
  while (Date.now() - began < timeoutMs) {
    if (await check().catch(() => false)) return Date.now() - began;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}
