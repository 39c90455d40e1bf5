import { Kafka, logLevel } from 'kafkajs';
import type { FaultStack } from './fault-stack.ts';

/** One write of the load: a taxonomy group created through the Management API. */
export interface Write {
  readonly codename: string;
  /** HTTP status, or 0 when no answer came (connection refused, reset, timed out). */
  readonly status: number;
  /** The answer carried the API's error shape (`message` and `error_code`), for failed writes. */
  readonly isApiShaped: boolean;
}

export interface WriteLoad {
  readonly writes: readonly Write[];
  /** Codenames of the writes answered 201: acknowledged, so they must never be lost. */
  acknowledged(): string[];
  /** Stops the load after the write under way; resolves with every write made. */
  stop(): Promise<readonly Write[]>;
}

/**
 * One client creating taxonomy groups back to back (`<prefix>_<n>`), one at a time, so their
 * commit order is their creation order. Failed writes are recorded and the load goes on.
 */
export function startWriteLoad(stack: FaultStack, prefix: string): WriteLoad {
  const writes: Write[] = [];
  let isStopped = false;
  const loop = (async () => {
    for (let n = 0; !isStopped; n += 1) {
      const codename = `${prefix}_${String(n).padStart(4, '0')}`;
      const answer = await stack
        .manage('POST', '/taxonomies', { name: codename, codename, terms: [] })
        .catch(() => ({ status: 0, body: {} as Record<string, unknown> }));
      writes.push({
        codename,
        status: answer.status,
        isApiShaped: typeof answer.body['message'] === 'string' && typeof answer.body['error_code'] === 'number',
      });
      // A refused connection fails at once: do not spin.
      if (answer.status === 0 || answer.status >= 500) await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    writes,
    acknowledged: () => writes.filter((w) => w.status === 201).map((w) => w.codename),
    async stop() {
      isStopped = true;
      await loop;
      return writes;
    },
  };
}

/** The codenames of every taxonomy group stored in the project, in the Management API's order. */
export async function storedTaxonomies(stack: FaultStack): Promise<string[]> {
  const codenames: string[] = [];
  let continuation: string | null = null;
  do {
    const response = await fetch(`${stack.cluster.managementUrl}/v2/projects/${stack.project.projectId}/taxonomies`, {
      headers: {
        authorization: `Bearer ${stack.project.managementKey}`,
        ...(continuation ? { 'x-continuation': continuation } : {}),
      },
    });
    if (response.status !== 200) throw new Error(`list taxonomies: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as {
      taxonomies: { codename: string }[];
      pagination: { continuation_token: string | null };
    };
    codenames.push(...body.taxonomies.map((t) => t.codename));
    continuation = body.pagination.continuation_token;
  } while (continuation);
  return codenames;
}

/**
 * The taxonomy codenames Delivery serves (after every committed change is indexed), every page of
 * them: a run of the fault tests stores more than one page (2,000) of groups.
 */
export async function deliveredTaxonomies(stack: FaultStack): Promise<string[]> {
  const codenames: string[] = [];
  let url = `${stack.cluster.deliveries[0]!.deliveryUrl}/${stack.project.projectId}/taxonomies?limit=2000`;
  for (;;) {
    const response = await fetch(url, {
      headers: { 'x-kc-wait-for-loading-new-content': 'true' },
      signal: AbortSignal.timeout(15_000),
    });
    if (response.status !== 200) throw new Error(`delivery taxonomies: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as {
      taxonomies: { system: { codename: string } }[];
      pagination: { next_page: string };
    };
    codenames.push(...body.taxonomies.map((t) => t.system.codename));
    if (body.pagination.next_page === '') return codenames;
    url = body.pagination.next_page;
  }
}

/**
 * Every notification the receiver got, in arrival order: the taxonomy's codename and the
 * notification's stable id (`X-Lectern-Notification-Ids`, one per notification in the body, in
 * order; a redelivery after a crash carries the same id, docs/webhooks.md).
 */
export function notifications(stack: FaultStack): { codename: string; id: string }[] {
  return stack.receiver.received
    .filter((r) => r.status === 200)
    .flatMap((r) => {
      const ids = String(r.headers['x-lectern-notification-ids'] ?? '').split(',');
      const list = r.json['notifications'] as { data: { system: { codename: string } } }[];
      return list.map((n, i) => ({ codename: n.data.system.codename, id: ids[i] ?? '' }));
    });
}

/** The taxonomy codenames notified, one per notification received, in arrival order. */
export function notifiedTaxonomies(stack: FaultStack): string[] {
  return stack.receiver.received
    .filter((r) => r.status === 200)
    .flatMap((r) =>
      (r.json['notifications'] as { data: { system: { codename: string } } }[]).map((n) => n.data.system.codename),
    );
}

/** Codenames that occur more than once. */
export function repeated(codenames: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const c of codenames) (seen.has(c) ? twice : seen).add(c);
  return [...twice];
}

/**
 * The project's change events on the topic, in topic order (read from the beginning by a fresh
 * consumer group of this test): each one's `seq` and its message as published.
 */
export async function topicEvents(stack: FaultStack, expectedCount: number): Promise<{ seq: number; value: string }[]> {
  const kafka = new Kafka({ brokers: [stack.engines.kafkaBrokers], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `faults-check-${Date.now()}` });
  const seqs: { seq: number; value: string }[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: stack.topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const value = message.value!.toString();
        const event = JSON.parse(value) as { projectId: string; seq: number };
        if (event.projectId === stack.project.projectId) seqs.push({ seq: event.seq, value });
      },
    });
    const deadline = Date.now() + 60_000;
    while (seqs.length < expectedCount && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    // A little longer: repeats, if any, would come after the expected count.
    await new Promise((r) => setTimeout(r, 1_000));
  } finally {
    await consumer.disconnect();
  }
  return seqs;
}
