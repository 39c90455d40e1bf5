import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { signatureHelper } from '@kontent-ai/webhook-helper';
import { createTestDatabase, startTestReceiver, type TestReceiver } from '@lectern/testing';
import { freePort, freePorts } from '../engines/index.ts';
import { createProjectWithKeys, type ClusterProject } from './admin.ts';
import { startCluster, type RunningCluster } from './cluster.ts';
import { startServiceProcess, waitUntilReady, type ServiceProcess } from './service-process.ts';

const postgresUrl = inject('postgresUrl');
const kafkaBrokers = inject('kafkaBrokers');
const s3Endpoint = inject('s3Endpoint');
const secret = 'cluster-webhook-secret';

describe.skipIf(!postgresUrl || !kafkaBrokers || !s3Endpoint)('cluster shape: the webhooks process', () => {
  let cluster: RunningCluster;
  let project: ClusterProject;
  let receiver: TestReceiver;
  let databaseUrl: string;
  let topic: string;
  const extra: ServiceProcess[] = [];

  beforeAll(async () => {
    const suffix = randomBytes(5).toString('hex');
    const operatorToken = randomBytes(24).toString('hex');
    databaseUrl = await createTestDatabase(postgresUrl);
    topic = `lectern.webhooks-test-${suffix}`;
    cluster = await startCluster({
      databaseUrl,
      kafkaBrokers,
      kafkaTopic: topic,
      s3: {
        endpoint: s3Endpoint,
        accessKey: inject('s3AccessKey'),
        secretKey: inject('s3SecretKey'),
        bucket: `lectern-${suffix}`,
      },
      operatorToken,
      ports: await freePorts(3).then(([management, indexer, webhooks]) => ({
        management,
        indexer,
        deliveries: [],
        webhooks,
      })),
      isWebhooksPrivateAllowed: true,
    });
    project = await createProjectWithKeys({
      managementUrl: cluster.managementUrl,
      operatorToken,
      name: 'Webhooks cluster test',
      userEmail: 'webhooks@lectern.test',
    });
    receiver = await startTestReceiver();
  });
  afterAll(async () => {
    for (const p of extra) await p.stop();
    await cluster?.stop();
    await receiver?.close();
  });
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => console.error(`--- logs of the cluster's processes ---\n${cluster?.logs() ?? '(not started)'}`));
  });

  async function manage(method: string, path: string, body?: unknown) {
    const response = await fetch(`${cluster.managementUrl}/v2/projects/${project.projectId}${path}`, {
      method,
      headers: { authorization: `Bearer ${project.managementKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  }
  const taxonomy = (codename: string) => manage('POST', '/taxonomies', { name: codename, codename, terms: [] });
  const received = () =>
    receiver.received
      .filter((r) => r.status === 200)
      .flatMap((r) =>
        (r.json['notifications'] as { data: { system: { codename: string } } }[]).map((n) => n.data.system.codename),
      );

  it('receives the signed notification of a publish from the separate webhooks process', async () => {
    const hook = await manage('POST', '/webhooks-vnext', {
      name: 'Cluster hook',
      url: receiver.url,
      secret,
      delivery_triggers: {
        slot: 'published',
        events: 'specific',
        content_item: { enabled: true, actions: [{ action: 'published' }] },
        taxonomy: { enabled: true, actions: [{ action: 'created' }] },
      },
    });
    await manage('POST', '/types', { name: 'Page', codename: 'page', elements: [] });
    await manage('POST', '/items', { name: 'Home', codename: 'home', type: { codename: 'page' } });
    await manage('PUT', '/items/codename/home/variants/codename/default', { elements: [] });
    await manage('PUT', '/items/codename/home/variants/codename/default/publish');
    await receiver.waitFor(1, 30_000);
    const got = receiver.received[0]!;
    expect(
      signatureHelper.isValidSignatureFromString(got.text, secret, got.headers['x-kontent-ai-signature'] as string),
    ).toBe(true);
    expect(got.json['notifications']).toMatchObject([
      { data: { system: { codename: 'home', workflow_step: 'published' } }, message: { action: 'published' } },
    ]);
    // The answer is recorded right after the receiver sent it.
    let health = '';
    for (let i = 0; i < 100 && health !== 'working'; i += 1) {
      health = String((await manage('GET', `/webhooks-vnext/${String(hook['id'])}`))['health_status']);
      await sleep(100);
    }
    expect(health).toBe('working');
  });

  it('loses nothing and keeps the order when the webhooks process is SIGKILLed mid-delivery, again and again', async () => {
    const before = received().length;
    const worker = cluster.processes.find((p) => p.name === 'webhooks')!;
    const webhooksPort = Number(new URL(cluster.webhooksUrl!).port);
    const env = {
      LECTERN_DATABASE_URL: databaseUrl,
      LECTERN_KAFKA_BROKERS: kafkaBrokers,
      LECTERN_KAFKA_TOPIC: topic,
      LECTERN_HOST: '127.0.0.1',
      LECTERN_LOG_LEVEL: 'warn',
      LECTERN_WEBHOOKS_ALLOW_PRIVATE: 'true',
    };
    const codenames: string[] = [];
    let current: ServiceProcess = worker;
    for (let round = 0; round < 3; round += 1) {
      receiver.isHanging = true; // the POST under way never answers: the kill lands mid-delivery
      for (let i = 0; i < 3; i += 1) {
        const codename = `kill_${round}_${i}`;
        codenames.push(codename);
        await taxonomy(codename);
      }
      await sleep(1_500);
      current.child.kill('SIGKILL');
      await current.stop();
      receiver.isHanging = false;
      // The dead worker's leases lapse (15 s); a fresh process takes over.
      const port = round === 0 ? webhooksPort : await freePort();
      current = startServiceProcess({
        name: `webhooks-${round + 2}`,
        service: 'webhooks',
        env: { ...env, LECTERN_PORT: String(port), LECTERN_WEBHOOKS_TIMEOUT_MS: '2000' },
      });
      extra.push(current);
      await waitUntilReady(current, `http://127.0.0.1:${port}`, 60_000);
    }
    const until = Date.now() + 120_000;
    while (!codenames.every((c) => received().includes(c)) && Date.now() < until) await sleep(250);
    const after = received().slice(before);
    // Every notification arrived; repeats only of whole batches cut by a kill, and in creation order.
    expect(new Set(after)).toEqual(new Set(codenames));
    const firstSeen = after.filter((c, i) => after.indexOf(c) === i);
    expect(firstSeen).toEqual(codenames);
  }, 300_000);
});
