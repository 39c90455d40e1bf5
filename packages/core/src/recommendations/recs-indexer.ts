import type { CoreDeps } from '../deps.ts';
import type { ChangeEvent } from '../domain/change-event.ts';
import { modelKinds } from '../domain/model-record.ts';
import { createChangeConsumer, type ChangeConsumer } from '../events/change-consumer.ts';
import type { EventBus } from '../ports/event-bus.ts';
import { createSerialQueue } from '../serial-queue.ts';
import { embeddedText, renderRecsEntries, type RenderedEntry } from './recs-entries.ts';
import type { CorpusStats, EmbeddingProvider, RecsIndexWriter } from './recs-port.ts';

const modelKindSet = new Set<string>(modelKinds);

interface ProjectTarget {
  readonly core: CoreDeps;
  readonly writer: RecsIndexWriter;
  readonly embedder: EmbeddingProvider;
  readonly projectId: string;
  /** Events, and items of a full re-render, per transaction. */
  readonly batchSize: number;
}

/**
 * Statistics for embedding a batch: on a re-render of every item, the batch's own entries; else
 * the stored ones plus the batch's (entries replaced are counted twice, a small bias).
 */
async function batchStats(
  t: ProjectTarget,
  entries: readonly RenderedEntry[],
  options: { isFull: boolean },
): Promise<CorpusStats> {
  const counts = new Map<string, number>();
  for (const e of entries) for (const term of e.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  const stored = options.isFull
    ? { documents: 0, documentFrequency: () => 0 }
    : await t.writer.termStats({ projectId: t.projectId, terms: [...counts.keys()] });
  return {
    documents: stored.documents + entries.length,
    documentFrequency: (term) => stored.documentFrequency(term) + (counts.get(term) ?? 0),
  };
}

/**
 * Renders the items (in parts of `batchSize`, one store transaction each), embeds them with the
 * batch's statistics and writes them; only the last part moves the watermark.
 */
async function renderAndWrite(
  t: ProjectTarget,
  input: { itemIds: readonly string[]; toSeq: number; isFull: boolean },
): Promise<void> {
  const { core, writer, embedder, projectId } = t;
  const parts: { itemId: string; entries: RenderedEntry[] }[][] = [];
  for (let start = 0; start === 0 || start < input.itemIds.length; start += t.batchSize) {
    const itemIds = input.itemIds.slice(start, start + t.batchSize);
    parts.push(await core.store.transaction((tx) => renderRecsEntries({ tx, projectId, itemIds })));
  }
  const all = parts.flat().flatMap((i) => i.entries);
  const stats = await batchStats(t, all, { isFull: input.isFull });
  for (const [index, part] of parts.entries()) {
    const entries = part.flatMap((i) => i.entries);
    const vectors = await embedder.embed(entries.map(embeddedText), { stats });
    let next = 0;
    const items = part.map((i) => ({
      itemId: i.itemId,
      entries: i.entries.map((e) => ({ ...e, embedding: vectors[next++] ?? [] })),
    }));
    const isLast = index === parts.length - 1;
    await writer.apply({
      projectId,
      toSeq: input.toSeq,
      embedder: embedder.id,
      items,
      isPartial: !isLast,
      isFull: isLast && input.isFull,
    });
  }
}

async function allItemIds(t: ProjectTarget): Promise<string[]> {
  const stored = await t.core.store.transaction(async (tx) => (await tx.items.list(t.projectId)).map((i) => i.id));
  return [...new Set([...stored, ...(await t.writer.indexedItemIds(t.projectId))])];
}

/**
 * Whether an event can change what the recommendation index holds: the published (Delivery
 * production) rendering. An event on the preview channel alone (a draft saved, a new version, a
 * workflow step) leaves the published variant as it was, so its item is not rendered again.
 */
const touchesPublished = (e: ChangeEvent) => e.channel !== 'delivery_preview';

/**
 * Applies events above the watermark: a model change re-renders every item, else the items named
 * by events that touch published content (none: the watermark alone moves).
 */
async function applyEvents(t: ProjectTarget, events: readonly ChangeEvent[]): Promise<void> {
  const last = events.at(-1);
  if (!last) return;
  const named = [
    ...new Set(
      events.flatMap((e) =>
        (e.objectKind === 'item' || e.objectKind === 'variant') && e.objectId && touchesPublished(e)
          ? [e.objectId]
          : [],
      ),
    ),
  ];
  const hasModelEvent = events.some((e) => modelKindSet.has(e.objectKind));
  if (!hasModelEvent && named.length === 0) {
    await t.writer.apply({
      projectId: t.projectId,
      toSeq: last.seq,
      embedder: t.embedder.id,
      items: [],
      isPartial: false,
      isFull: false,
    });
    return;
  }
  // A model change re-renders everything; so does a project that has more than doubled since its
  // last full re-render (its term statistics, and so its embeddings, have drifted).
  const full = await t.writer.fullDocuments(t.projectId);
  const documents = (await t.writer.termStats({ projectId: t.projectId, terms: [] })).documents;
  const isModel = hasModelEvent || documents > 2 * full;
  const itemIds = isModel ? await allItemIds(t) : named;
  await renderAndWrite(t, { itemIds, toSeq: last.seq, isFull: isModel });
}

/**
 * Brings the project's recommendation entries up to the latest committed event: from scratch
 * (every item at the latest sequence) when it has none, else event batch by event batch from the
 * outbox. Resolves with the watermark reached.
 */
export async function indexRecsProject(t: ProjectTarget): Promise<number> {
  for (;;) {
    const watermark = await t.writer.watermark(t.projectId);
    if (watermark === 0) {
      const latest = await t.core.store.transaction((tx) => tx.outbox.latestSeq(t.projectId));
      if (latest === 0) return 0;
      await renderAndWrite(t, { itemIds: await allItemIds(t), toSeq: latest, isFull: true });
      continue;
    }
    const events = await t.core.store.transaction((tx) =>
      tx.outbox.readAfter({ projectId: t.projectId, afterSeq: watermark, limit: t.batchSize }),
    );
    if (events.length === 0) return watermark;
    await applyEvents(t, events);
  }
}

/** Applies pending events per project, from the outbox (`catchUp`) and the bus once started. */
export type RecsConsumer = ChangeConsumer;

export interface RecsConsumerOptions {
  readonly core: CoreDeps;
  readonly writer: RecsIndexWriter;
  readonly embedder: EmbeddingProvider;
  readonly bus?: EventBus;
  /** Default `lectern-recommendations`. */
  readonly group?: string;
  readonly batchSize?: number;
  readonly onError?: (error: unknown) => void;
}

/**
 * The recommendation consumer (issue 16): keeps the recommendation index in step with published
 * content. Delivery is at-least-once: events at or below a project's watermark are skipped, and a
 * gap (events the bus no longer holds) is filled from the outbox.
 */
export function createRecsConsumer(options: RecsConsumerOptions): RecsConsumer {
  const target = (projectId: string): ProjectTarget => ({
    core: options.core,
    writer: options.writer,
    embedder: options.embedder,
    projectId,
    batchSize: options.batchSize ?? 500,
  });
  const handle = async (events: readonly ChangeEvent[]) => {
    const projectId = events[0]?.projectId;
    if (projectId === undefined) return;
    const t = target(projectId);
    const watermark = await t.writer.watermark(projectId);
    const fresh = events.filter((e) => e.seq > watermark);
    const isContiguous = watermark > 0 && fresh.every((e, i) => e.seq === watermark + 1 + i);
    if (fresh.length === 0) return;
    if (isContiguous) await applyEvents(t, fresh);
    else await indexRecsProject(t);
  };
  return createChangeConsumer({
    name: 'createRecsConsumer',
    store: options.core.store,
    bus: options.bus,
    group: options.group ?? 'lectern-recommendations',
    passes: createSerialQueue(),
    catchUpProject: (projectId) => indexRecsProject(target(projectId)),
    handle,
    onError: options.onError,
  });
}
