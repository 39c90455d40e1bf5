import type { DeliveryChannel, IndexBatch, IndexChangeRow } from '@lectern/core';
import type { SearchEngine } from '@lectern/search-engine';
import { documentKey, documentSource, versionId, type DocumentSource } from './document-source.ts';
import { scan } from './scan.ts';

/** What the writer reads back of a stored version. */
export type StoredVersion = Pick<
  DocumentSource,
  'channel' | 'item_id' | 'language' | 'codename' | 'type' | 'collection' | 'hash' | 'whash' | 'from' | 'until' | 'sys'
>;

const storedFields = [
  'channel',
  'item_id',
  'language',
  'codename',
  'type',
  'collection',
  'hash',
  'whash',
  'from',
  'until',
  'sys',
] as const;

/** Item ids per lookup (a terms query). */
const lookupSize = 1_000;

/**
 * The stored versions of these items that are not superseded at `watermark`: the visible ones
 * (`from <= watermark`) and leftovers above it (a part of a re-render written, or a batch whose
 * metadata commit failed; they are replaced or deleted now).
 */
async function storedVersions(options: {
  engine: SearchEngine;
  index: string;
  projectId: string;
  itemIds: readonly string[];
  watermark: number;
  window: number | undefined;
}): Promise<{ id: string; source: StoredVersion }[]> {
  const out: { id: string; source: StoredVersion }[] = [];
  for (let i = 0; i < options.itemIds.length; i += lookupSize) {
    const ids = options.itemIds.slice(i, i + lookupSize);
    const query = {
      bool: {
        filter: [{ term: { project: options.projectId } }, { terms: { item_id: ids } }],
        must_not: [{ range: { until: { lte: options.watermark } } }],
      },
    };
    const found = await scan<StoredVersion>(options.engine, options.index, {
      query,
      sort: [{ item_id: 'asc' }, { channel: 'asc' }, { language: 'asc' }, { from: 'asc' }],
      source: storedFields,
      ...(options.window === undefined ? {} : { window: options.window }),
    });
    for (const hit of found.hits) if (hit._source) out.push({ id: hit._id, source: hit._source });
  }
  return out;
}

export interface EngineWrite {
  /** Bulk operations: new versions first, then the superseded versions marked, then leftovers deleted. */
  readonly operations: object[];
  /** Sync changes to record at the batch's sequence. */
  readonly changes: IndexChangeRow[];
  /** Documents written or removed. */
  readonly written: number;
}

/**
 * What applying the batch to the engine means: each listed document whose content (or its item's
 * languages) differs from its visible version becomes a new version visible from `toSeq`, the
 * visible version being marked superseded at `toSeq`; visible documents no longer listed are
 * marked superseded. Readers pinned to an older watermark keep seeing the old versions.
 */
export async function planWrite(options: {
  engine: SearchEngine;
  index: string;
  batch: IndexBatch;
  watermark: number;
  now: number;
  /** See ScanOptions.window. */
  window?: number;
}): Promise<EngineWrite> {
  const { engine, index, batch, watermark, now } = options;
  const S = batch.toSeq;
  const stored = await storedVersions({
    engine,
    index,
    projectId: batch.projectId,
    itemIds: [...new Set(batch.items.map((i) => i.itemId))],
    watermark,
    window: options.window,
  });
  const visible = new Map<string, { id: string; source: StoredVersion }>();
  const leftovers = new Map<string, string[]>();
  for (const version of stored) {
    const key = documentKey(version.source.channel, version.source.item_id, version.source.language);
    if (version.source.from <= watermark) visible.set(key, version);
    else leftovers.set(key, [...(leftovers.get(key) ?? []), version.id]);
  }
  const writes: object[] = [];
  const supersede: object[] = [];
  const deletes: object[] = [];
  const changes: IndexChangeRow[] = [];
  const listed = new Set<string>();
  const listedItems = new Set<string>();
  const markSuperseded = (id: string) =>
    supersede.push({ update: { _index: index, _id: id } }, { doc: { until: S, archived_at: now } });
  const dropLeftovers = (key: string, keep?: string) => {
    for (const id of leftovers.get(key) ?? []) if (id !== keep) deletes.push({ delete: { _index: index, _id: id } });
  };

  for (const { channel, itemId, documents } of batch.items) {
    listedItems.add(`${channel}:${itemId}`);
    const langs = [...new Set(documents.map((d) => d.language))].sort();
    for (const doc of documents) {
      const key = documentKey(channel, doc.itemId, doc.language);
      listed.add(key);
      const source = documentSource({ projectId: batch.projectId, channel, doc, langs, from: S });
      const old = visible.get(key);
      if (old !== undefined && old.source.until === undefined && old.source.whash === source.whash) {
        dropLeftovers(key);
        continue;
      }
      const id = versionId(key, S);
      writes.push({ index: { _index: index, _id: id } }, source);
      dropLeftovers(key, id);
      if (old !== undefined) markSuperseded(old.id);
      if (old === undefined || old.source.hash !== source.hash) changes.push(changeOf(channel, source, 'changed'));
    }
  }
  for (const [key, old] of visible) {
    if (listed.has(key) || !listedItems.has(`${old.source.channel}:${old.source.item_id}`)) continue;
    markSuperseded(old.id);
    dropLeftovers(key);
    changes.push(changeOf(old.source.channel, old.source, 'deleted'));
  }
  for (const [key] of leftovers)
    if (!listed.has(key) && !visible.has(key) && listedItems.has(key.slice(0, key.lastIndexOf(':'))))
      dropLeftovers(key);
  return { operations: [...writes, ...supersede, ...deletes], changes, written: changes.length };
}

function changeOf(
  channel: DeliveryChannel,
  source: Pick<DocumentSource, 'item_id' | 'language' | 'codename' | 'type' | 'collection' | 'sys'>,
  changeType: 'changed' | 'deleted',
): IndexChangeRow {
  return {
    channel,
    itemId: source.item_id,
    language: source.language,
    changeType,
    codename: source.codename,
    type: source.type,
    collection: source.collection,
    system: source.sys,
  };
}
