import type {
  DeliveryChannel,
  DeliveryIndexReader,
  DeliveryItem,
  IndexChange,
  IndexModelChange,
  ModelChangeKind,
} from '@lectern/core';
import type { SyncPosition, VariantKey } from './sync-token.ts';

/** One entry of a Sync API v2 `items` array (reference 2.1). */
export interface ItemDelta {
  readonly change_type: 'changed' | 'deleted';
  readonly timestamp: string;
  readonly data: {
    readonly system: {
      readonly id: string;
      readonly name: string;
      readonly codename: string;
      readonly language: string;
      readonly type: string;
      readonly collection: string;
      readonly last_modified: string;
      readonly workflow?: string;
      readonly workflow_step?: string;
    };
  };
}

/** One entry of a Sync API v2 `types`, `taxonomies` or `languages` array (reference 2.1). */
export interface ModelDelta {
  readonly change_type: 'changed' | 'deleted';
  readonly timestamp: string;
  /** `id, name, codename`, plus `last_modified` for types and taxonomies. */
  readonly data: { readonly system: IndexModelChange['system'] };
}

/** A Sync API v2 answer: all four arrays, always (reference 2.1, checklist 4). */
export interface SyncBody {
  readonly items: ItemDelta[];
  readonly types: ModelDelta[];
  readonly languages: ModelDelta[];
  readonly taxonomies: ModelDelta[];
}

export interface SyncPage {
  readonly body: SyncBody;
  /** The position to hand back as the next `X-Continuation`. */
  readonly next: SyncPosition;
}

const variantKey = (itemId: string, language: string) => `${itemId}\u0000${language}`;

/**
 * Current documents of the changed variants whose change carries no `system` (rows recorded
 * before the index kept it), for the fields it lacks (name, last_modified, workflow). A deleted
 * variant is looked up in the preview channel, where an unpublished item still lives, for its
 * name; when it is gone everywhere the codename stands in.
 */
async function documentsOf(
  index: DeliveryIndexReader,
  options: { projectId: string; channel: DeliveryChannel; changes: readonly IndexChange[] },
): Promise<Map<string, DeliveryItem>> {
  const found = new Map<string, DeliveryItem>();
  const wanted = new Map<string, { channel: DeliveryChannel; language: string; codenames: Set<string> }>();
  for (const c of options.changes) {
    if (c.system !== undefined) continue;
    const channel = c.changeType === 'changed' ? options.channel : 'preview';
    if (c.changeType === 'deleted' && options.channel === 'preview') continue;
    const key = `${channel}\u0000${c.language}`;
    const group = wanted.get(key) ?? { channel, language: c.language, codenames: new Set<string>() };
    group.codenames.add(c.itemCodename);
    wanted.set(key, group);
  }
  for (const group of wanted.values()) {
    const variants = await index.itemsByCodename({
      projectId: options.projectId,
      channel: group.channel,
      languages: [group.language],
      codenames: [...group.codenames],
    });
    for (const v of variants) {
      if (v.language !== group.language) continue;
      const key = variantKey(v.itemId, v.language);
      // The channel's own document wins over the preview one used for deletions.
      if (group.channel === options.channel || !found.has(key)) found.set(key, v.item);
    }
  }
  return found;
}

/**
 * The entry of a change: the system object recorded with it (for a deletion, the removed
 * document's), else the current document's (a deletion then lacks last_modified and workflow).
 */
function deltaOf(change: IndexChange, document: DeliveryItem | undefined): ItemDelta {
  const isRecorded = change.system !== undefined;
  const isChanged = change.changeType === 'changed';
  const s = change.system ?? document?.system;
  const workflow =
    (isChanged || isRecorded) && s?.workflow !== undefined && s.workflow_step !== undefined
      ? { workflow: s.workflow, workflow_step: s.workflow_step }
      : {};
  return {
    change_type: change.changeType,
    timestamp: change.timestamp,
    data: {
      system: {
        id: change.itemId,
        name: s?.name ?? change.itemCodename,
        codename: change.itemCodename,
        language: change.language,
        type: change.type,
        collection: change.collection,
        last_modified: (isChanged || isRecorded) && s !== undefined ? s.last_modified : change.timestamp,
        ...workflow,
      },
    },
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Changes in stream order: by sequence, then variant (item id, language) in code-unit order. */
function compareChanges(a: IndexChange, b: IndexChange): number {
  return a.seq - b.seq || compareText(a.itemId, b.itemId) || compareText(a.language, b.language);
}

const isAfter = (c: IndexChange, key: VariantKey) =>
  (compareText(c.itemId, key.itemId) || compareText(c.language, key.language)) > 0;

/**
 * The changes not yet handed out from `from`, in stream order: whole sequences, as the index
 * returns them, less the part of a partly read sequence that is done. A cursor past the last
 * change of its sequence (the rest moved on to later sequences) reads on from the next one.
 */
async function pendingChanges(index: DeliveryIndexReader, from: SyncPosition, pageSize: number) {
  const read = (afterSeq: number) =>
    index.changesSince({ projectId: from.projectId, channel: from.channel, afterSeq, limit: pageSize });
  const after = from.after;
  if (after === null) return (await read(from.seq)).sort(compareChanges);
  const rest = (await read(from.seq - 1)).filter((c) => c.seq !== from.seq || isAfter(c, after));
  return (rest.length > 0 ? rest : await read(from.seq)).sort(compareChanges);
}

const modelDeltaOf = (c: IndexModelChange): ModelDelta => ({
  change_type: c.changeType,
  timestamp: c.timestamp,
  data: { system: c.system },
});

/**
 * The model arrays of a page covering the sequences `afterSeq < seq <= toSeq`. A page that
 * starts inside a partly read sequence begins after it: the page that started that sequence
 * reported its model changes.
 */
async function modelArrays(
  index: DeliveryIndexReader,
  options: { from: SyncPosition; toSeq: number },
): Promise<Pick<SyncBody, 'types' | 'languages' | 'taxonomies'>> {
  const { from, toSeq } = options;
  const changes =
    (await index.modelChangesSince?.({
      projectId: from.projectId,
      channel: from.channel,
      afterSeq: from.seq,
      toSeq,
    })) ?? [];
  const of = (kind: ModelChangeKind) => changes.filter((c) => c.kind === kind).map(modelDeltaOf);
  return { types: of('type'), languages: of('language'), taxonomies: of('taxonomy') };
}

/**
 * One page of the changes of a channel after a position, and the position after it. The index
 * keeps only the last change of each variant, so a variant changed and then deleted appears once,
 * as deleted (reference 2.1 semantics). A sequence with more changes than a page (a bulk import
 * indexed in one batch) is split with a variant cursor. When nothing is left the position moves
 * up to the index watermark read before the changes, which every later change is above, so an
 * empty answer means "caught up" (sync-sdk stops on it). The model arrays hold the model changes
 * of the sequences the page covers.
 */
export async function readSyncPage(
  index: DeliveryIndexReader,
  options: { from: SyncPosition; pageSize: number },
): Promise<SyncPage> {
  const { from, pageSize } = options;
  const watermark = await index.watermark(from.projectId);
  const pending = await pendingChanges(index, from, pageSize);
  const changes = pending.slice(0, pageSize);
  const last = changes.at(-1);
  if (last === undefined) {
    const seq = Math.max(from.after === null ? from.seq : from.seq - 1, watermark);
    const model = await modelArrays(index, { from, toSeq: seq });
    return { body: { items: [], ...model }, next: { ...from, seq, after: null } };
  }
  const isSplit = pending[pageSize]?.seq === last.seq;
  const documents = await documentsOf(index, { projectId: from.projectId, channel: from.channel, changes });
  const items = changes.map((c) => deltaOf(c, documents.get(variantKey(c.itemId, c.language))));
  const model = await modelArrays(index, { from, toSeq: last.seq });
  return {
    body: { items, ...model },
    next: { ...from, seq: last.seq, after: isSplit ? { itemId: last.itemId, language: last.language } : null },
  };
}
