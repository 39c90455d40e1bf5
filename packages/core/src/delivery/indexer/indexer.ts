import type { Store } from '../../ports/store.ts';
import type { ChangeEvent } from '../../domain/change-event.ts';
import { deliveryModelKinds } from '../../domain/model-record.ts';
import type { DeliveryChannel } from '../index-port.ts';
import { ModelView } from './model-view.ts';
import { RenderContext } from './render-context.ts';
import { renderVariant } from './render-variant.ts';
import type { DeliveryIndexWriter, IndexDocument, ItemDocuments } from './writer-port.ts';

export interface IndexProjectOptions {
  readonly store: Store;
  readonly writer: DeliveryIndexWriter;
  readonly projectId: string;
  /** Public URL prefix of asset binaries (asset `url`s). */
  readonly assetsBase: string;
  /** Events per batch (one index transaction each). */
  readonly batchSize?: number;
  /** Called after each applied batch with the new watermark. */
  readonly onBatch?: (watermark: number) => void;
  /** Items rendered and written per part of a large re-render (default 500). */
  readonly partSize?: number;
  /** Called after each part of a large re-render with the items done and their total. */
  readonly onProgress?: (done: number, total: number) => void;
}

const channels: readonly DeliveryChannel[] = ['production', 'preview'];
const modelKindSet = new Set<string>(deliveryModelKinds);

/** What a batch of events affects. */
interface Affected {
  isModel: boolean;
  itemIds: Set<string>;
  assetIds: Set<string>;
}

function affectedBy(events: readonly ChangeEvent[]): Affected {
  const out: Affected = { isModel: false, itemIds: new Set(), assetIds: new Set() };
  for (const e of events) {
    if (modelKindSet.has(e.objectKind)) out.isModel = true;
    else if ((e.objectKind === 'item' || e.objectKind === 'variant') && e.objectId) out.itemIds.add(e.objectId);
    else if (e.objectKind === 'asset' && e.objectId) out.assetIds.add(e.objectId);
  }
  return out;
}

/** Renders every document of the items, per channel, from the current store state. */
async function renderItems(ctx: RenderContext, itemIds: readonly string[]): Promise<ItemDocuments[]> {
  // All at once: the context fetches what concurrent renders ask for together.
  const perItem = await Promise.all(
    itemIds.map(async (itemId) => {
      const item = await ctx.item(itemId);
      const variants = item ? await ctx.variantsOf(itemId) : [];
      return Promise.all(
        channels.map(async (channel): Promise<ItemDocuments> => {
          const documents: IndexDocument[] = [];
          if (item)
            for (const variant of variants) {
              const doc = await renderVariant({ ctx, item, variant, channel });
              if (doc) documents.push(doc);
            }
          return { itemId, channel, documents };
        }),
      );
    }),
  );
  return perItem.flat();
}

/** Items rendered and written per part of a re-render (one store and one index transaction each). */
const defaultPartSize = 500;

/**
 * Re-renders the items from the current store state and writes them up to `toSeq`: in parts of
 * `partSize` items (each part partial, the watermark held), the model and the watermark with
 * the last part.
 */
async function renderAndWrite(
  options: IndexProjectOptions,
  input: { targets: readonly string[]; isModel: boolean; toSeq: number; timestamp: Date },
): Promise<void> {
  const { store, writer, projectId } = options;
  const { targets } = input;
  const renderChunk = options.partSize ?? defaultPartSize;
  const starts: number[] = [];
  for (let start = 0; start === 0 || start < targets.length; start += renderChunk) starts.push(start);
  const render = (start: number) => {
    const isLast = start + renderChunk >= targets.length;
    return store.transaction(async (tx) => {
      const view = await ModelView.load(tx, projectId);
      const ctx = new RenderContext({ tx, projectId, model: view, assetsBase: options.assetsBase });
      const items = await renderItems(ctx, targets.slice(start, start + renderChunk));
      return { items, model: isLast && input.isModel ? view.indexedModel() : null, isLast };
    });
  };
  // The next part renders while the index writes this one (on PostgreSQL that is another process),
  // and up to `partsInFlight` partial parts are written at once; the last part, which moves the
  // watermark, is written after every other has been.
  const writing = new Set<Promise<unknown>>();
  const failures: unknown[] = [];
  let next = render(0);
  for (const [i, start] of starts.entries()) {
    const { items, model, isLast } = await next;
    const following = starts[i + 1];
    if (following !== undefined) {
      next = render(following);
      next.catch(() => undefined);
    }
    const done = Math.min(start + renderChunk, targets.length);
    const write = () =>
      writer.apply({
        projectId,
        toSeq: input.toSeq,
        timestamp: input.timestamp,
        items,
        model,
        ...(isLast ? {} : { isPartial: true }),
      });
    if (isLast) {
      await Promise.all(writing);
      if (failures.length > 0) throw failures[0];
      await write();
      options.onProgress?.(done, targets.length);
    } else {
      const written: Promise<unknown> = write().then(
        () => {
          writing.delete(written);
          options.onProgress?.(done, targets.length);
        },
        (error: unknown) => {
          writing.delete(written);
          failures.push(error);
        },
      );
      writing.add(written);
      if (writing.size >= partsInFlight) await Promise.race(writing);
      if (failures.length > 0) {
        await Promise.all(writing);
        throw failures[0];
      }
    }
  }
}

/** Partial parts of a re-render written at once (each in its own transaction). */
const partsInFlight = 2;

/**
 * Applies one batch of the project's events (ascending, contiguous, all above the watermark):
 * re-renders what they affect from the current store state (items and variants named, items
 * depending on them or on changed assets; everything on a model change), so applying events
 * again, or late, converges on the same documents. The writer ignores a batch whose last sequence
 * is not above its watermark.
 */
async function applyBatch(options: IndexProjectOptions, events: readonly ChangeEvent[]): Promise<number> {
  const { store, writer, projectId } = options;
  const lastEvent = events.at(-1)!;
  const affected = affectedBy(events);
  // The dependents lookup (an engine search on the search index) runs beside the model check (a
  // PostgreSQL read): on the publish → visible path they are two round trips, not one after the
  // other; when the model turns out missing its answer is not used.
  const dependents = affected.isModel
    ? null
    : writer.dependents({ projectId, itemIds: [...affected.itemIds], assetIds: [...affected.assetIds] });
  dependents?.catch(() => undefined);
  const isModel = affected.isModel || !(await writer.hasModel(projectId));
  let targets: string[];
  if (isModel || dependents === null) {
    const indexed = await writer.indexedItemIds(projectId);
    const stored = await store.transaction(async (tx) => (await tx.items.list(projectId)).map((i) => i.id));
    targets = [...new Set([...stored, ...indexed])];
  } else {
    targets = [...new Set([...affected.itemIds, ...(await dependents)])];
  }
  await renderAndWrite(options, { targets, isModel, toSeq: lastEvent.seq, timestamp: lastEvent.occurredAt });
  options.onBatch?.(lastEvent.seq);
  return lastEvent.seq;
}

/**
 * A project indexed for the first time (or after a reset): every item rendered once from the
 * current state, which includes every event up to the latest sequence read before rendering, so
 * the watermark jumps there instead of replaying the whole outbox batch by batch.
 */
async function indexFromScratch(options: IndexProjectOptions): Promise<number> {
  const { store, projectId } = options;
  const { latest, itemIds, occurredAt } = await store.transaction(async (tx) => {
    const seq = await tx.outbox.latestSeq(projectId);
    const last = seq === 0 ? [] : await tx.outbox.readAfter({ projectId, afterSeq: seq - 1, limit: 1 });
    return {
      latest: seq,
      itemIds: (await tx.items.list(projectId)).map((i) => i.id),
      occurredAt: last[0]?.occurredAt ?? new Date(0),
    };
  });
  if (latest === 0) return 0;
  await renderAndWrite(options, { targets: itemIds, isModel: true, toSeq: latest, timestamp: occurredAt });
  options.onBatch?.(latest);
  return latest;
}

/**
 * Applies the project's pending change events to the delivery index, read from the outbox batch
 * by batch in sequence order, and resolves with the watermark reached.
 */
export async function indexProject(options: IndexProjectOptions): Promise<number> {
  const { store, writer, projectId } = options;
  const batchSize = options.batchSize ?? 500;
  for (;;) {
    const watermark = await writer.watermark(projectId);
    if (watermark === 0 && !(await writer.hasModel(projectId))) {
      if ((await indexFromScratch(options)) === 0) return 0;
      continue;
    }
    const events = await store.transaction((tx) =>
      tx.outbox.readAfter({ projectId, afterSeq: watermark, limit: batchSize }),
    );
    if (events.length === 0) return watermark;
    await applyBatch(options, events);
  }
}

/**
 * Applies change events of the project received from the event bus (at-least-once, ascending):
 * only those newer than the watermark. When they do not follow the watermark directly (a gap:
 * events the bus no longer holds, or a rebuilt index), the missing ones come from the outbox.
 * Resolves with the watermark reached.
 */
export async function indexEvents(options: IndexProjectOptions & { events: readonly ChangeEvent[] }): Promise<number> {
  const watermark = await options.writer.watermark(options.projectId);
  const fresh = options.events.filter((e) => e.projectId === options.projectId && e.seq > watermark);
  const isContiguous = fresh.every((e, i) => e.seq === watermark + 1 + i);
  if (fresh.length === 0) return watermark;
  if (!isContiguous) return indexProject(options);
  return applyBatch(options, fresh);
}

/**
 * Rebuilds the project's index from scratch: drops its documents, changes and watermark, then
 * renders every item once at the latest sequence (see `indexFromScratch`).
 */
export async function rebuildProject(options: IndexProjectOptions): Promise<number> {
  await options.writer.reset(options.projectId);
  return indexProject(options);
}
