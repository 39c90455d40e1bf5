import type { Kysely, Transaction } from 'kysely';
import type { DeliveryChannel, IndexBatch, IndexModelChange, ModelChangeKind } from '@lectern/core';
import type { LedgerDatabase } from './index-ledger-schema.ts';

type Query = Kysely<LedgerDatabase> | Transaction<LedgerDatabase>;

const channels: readonly DeliveryChannel[] = ['production', 'preview'];

interface ModelObject {
  readonly system: IndexModelChange['system'];
  /** The object's whole Delivery JSON: a difference is a change. */
  readonly json: string;
}

/** The objects of one kind of a stored or new model, by id. */
function objectsOf(list: readonly unknown[]): Map<string, ModelObject> {
  const out = new Map<string, ModelObject>();
  for (const entry of list as readonly { system: IndexModelChange['system'] }[]) {
    const { id, name, codename, last_modified } = entry.system;
    const system = last_modified === undefined ? { id, name, codename } : { id, name, codename, last_modified };
    out.set(id, { system, json: JSON.stringify(entry) });
  }
  return out;
}

/**
 * Records, for every channel, the types, taxonomies and languages the batch's model adds, edits or
 * removes against the stored model (all of them as changed when none is stored yet), at the
 * batch's sequence. Call before the stored model is replaced.
 */
export async function recordModelChanges(
  trx: Transaction<LedgerDatabase>,
  options: { batch: IndexBatch; timestamp: string },
): Promise<void> {
  const { batch, timestamp } = options;
  const model = batch.model;
  if (model === null) return;
  const stored = await trx
    .selectFrom('delivery_models')
    .selectAll()
    .where('project_id', '=', batch.projectId)
    .executeTakeFirst();
  const before = (text: string | undefined) => (text === undefined ? [] : (JSON.parse(text) as unknown[]));
  const kinds: [ModelChangeKind, readonly unknown[], readonly unknown[]][] = [
    ['type', before(stored?.types), model.types],
    ['taxonomy', before(stored?.taxonomies), model.taxonomies],
    ['language', before(stored?.languages), model.languages],
  ];
  const rows = [];
  for (const [kind, oldList, newList] of kinds) {
    const oldObjects = objectsOf(oldList);
    const newObjects = objectsOf(newList);
    const changes: { id: string; type: 'changed' | 'deleted'; system: IndexModelChange['system'] }[] = [];
    for (const [id, o] of newObjects)
      if (oldObjects.get(id)?.json !== o.json) changes.push({ id, type: 'changed', system: o.system });
    for (const [id, o] of oldObjects) if (!newObjects.has(id)) changes.push({ id, type: 'deleted', system: o.system });
    for (const channel of channels)
      for (const c of changes)
        rows.push({
          project_id: batch.projectId,
          channel,
          kind,
          object_id: c.id,
          seq: batch.toSeq,
          change_type: c.type,
          system: JSON.stringify(c.system),
          timestamp,
        });
  }
  for (const row of rows)
    await trx
      .insertInto('delivery_model_changes')
      .values(row)
      .onConflict((c) =>
        c.columns(['project_id', 'channel', 'kind', 'object_id']).doUpdateSet({
          seq: row.seq,
          change_type: row.change_type,
          system: row.system,
          timestamp: row.timestamp,
        }),
      )
      .execute();
}

/** Model changes of a channel with `afterSeq < seq <= toSeq`, by sequence, kind, then id. */
export async function modelChangesSince(
  q: Query,
  o: { projectId: string; channel: DeliveryChannel; afterSeq: number; toSeq: number },
): Promise<IndexModelChange[]> {
  if (o.toSeq <= o.afterSeq) return [];
  const rows = await q
    .selectFrom('delivery_model_changes')
    .selectAll()
    .where('project_id', '=', o.projectId)
    .where('channel', '=', o.channel)
    .where('seq', '>', o.afterSeq)
    .where('seq', '<=', o.toSeq)
    .orderBy('seq')
    .orderBy('kind')
    .orderBy('object_id')
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    kind: r.kind as ModelChangeKind,
    changeType: r.change_type === 'deleted' ? 'deleted' : 'changed',
    system: JSON.parse(r.system) as IndexModelChange['system'],
    timestamp: r.timestamp,
  }));
}
