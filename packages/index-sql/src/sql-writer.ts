import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import {
  documentBody,
  documentRows,
  type DeliveryChannel,
  type IndexBatch,
  type IndexChangeRow,
  type IndexDocument,
  type IndexedVariant,
  type LedgerWrite,
} from '@lectern/core';
import type { IndexDatabase } from './schema.ts';

export type Trx = Transaction<IndexDatabase>;

/** Rows per multi-row statement (each column travels as one array parameter). */
const chunkSize = 5_000;

function* chunks<T>(list: readonly T[], size = chunkSize): Generator<T[]> {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}

interface Rendered {
  readonly channel: DeliveryChannel;
  readonly doc: IndexDocument;
  readonly body: string;
  /** The content hash: a difference is a Sync change. */
  readonly hash: string;
  /** What the `hash` column holds: the content hash, then the read-ahead hint's when there is one. */
  readonly stamp: string;
}

interface Existing {
  readonly doc_id: string;
  readonly channel: string;
  readonly item_id: string;
  readonly language: string;
  readonly hash: string;
  readonly codename: string;
  readonly type: string;
  readonly collection: string;
}

const keyOf = (channel: string, itemId: string, language: string) => `${channel}\u0000${itemId}\u0000${language}`;

function render(channel: DeliveryChannel, doc: IndexDocument): Rendered {
  const { body, hash, hint } = documentBody(doc);
  const stamp = hint === '' ? hash : `${hash} ${createHash('sha256').update(hint).digest('base64')}`;
  return { channel, doc, body, hash, stamp };
}

/** Inserts or replaces documents; returns their doc ids by channel, item and language. */
async function upsertDocuments(trx: Trx, projectId: string, docs: readonly Rendered[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const part of chunks(docs, 1_000)) {
    const rows = await trx
      .insertInto('delivery_documents')
      .values(
        part.map((r) => {
          const system = r.doc.item.system;
          return {
            project_id: projectId,
            channel: r.channel,
            item_id: r.doc.itemId,
            language: r.doc.language,
            codename: system.codename,
            name: system.name,
            type: system.type,
            collection: system.collection,
            last_modified: system.last_modified,
            body: r.body,
            hash: r.stamp,
          };
        }),
      )
      .onConflict((c) =>
        c.columns(['project_id', 'channel', 'item_id', 'language']).doUpdateSet((eb) => ({
          codename: eb.ref('excluded.codename'),
          name: eb.ref('excluded.name'),
          type: eb.ref('excluded.type'),
          collection: eb.ref('excluded.collection'),
          last_modified: eb.ref('excluded.last_modified'),
          body: eb.ref('excluded.body'),
          hash: eb.ref('excluded.hash'),
        })),
      )
      .returning([
        sql<string>`doc_id::text`.as('doc_id'),
        'channel',
        sql<string>`item_id::text`.as('item_id'),
        'language',
      ])
      .execute();
    for (const r of rows) ids.set(keyOf(r.channel, r.item_id, r.language), r.doc_id);
  }
  return ids;
}

/** Writes the value, member and link rows of freshly upserted documents. */
async function insertRows(
  trx: Trx,
  projectId: string,
  docs: readonly { readonly docId: string; readonly rendered: Rendered }[],
): Promise<void> {
  const values: {
    docId: string;
    channel: string;
    property: string;
    kind: string;
    num: number | null;
    txt: string | null;
  }[] = [];
  const members: { docId: string; channel: string; property: string; member: string }[] = [];
  const links: { docId: string; channel: string; kind: string; target: string }[] = [];
  for (const { docId, rendered } of docs) {
    const rows = documentRows(rendered.doc);
    const channel = rendered.channel;
    for (const v of rows.values) values.push({ docId, channel, ...v });
    for (const m of rows.members) members.push({ docId, channel, ...m });
    for (const l of rows.links) links.push({ docId, channel, ...l });
  }
  for (const part of chunks(values)) {
    await sql`insert into delivery_values (project_id, doc_id, channel, property, kind, num, txt)
      select ${projectId}::uuid, u.* from unnest(${part.map((v) => v.docId)}::int8[], ${part.map((v) => v.channel)}::text[],
        ${part.map((v) => v.property)}::text[], ${part.map((v) => v.kind)}::"char"[], ${part.map((v) => v.num)}::float8[],
        ${part.map((v) => v.txt)}::text[]) as u`.execute(trx);
  }
  for (const part of chunks(members)) {
    await sql`insert into delivery_members (project_id, doc_id, channel, property, member)
      select ${projectId}::uuid, u.* from unnest(${part.map((m) => m.docId)}::int8[], ${part.map((m) => m.channel)}::text[],
        ${part.map((m) => m.property)}::text[], ${part.map((m) => m.member)}::text[]) as u`.execute(trx);
  }
  for (const part of chunks(links)) {
    await sql`insert into delivery_links (project_id, doc_id, channel, kind, target)
      select ${projectId}::uuid, u.* from unnest(${part.map((l) => l.docId)}::int8[], ${part.map((l) => l.channel)}::text[],
        ${part.map((l) => l.kind)}::"char"[], ${part.map((l) => l.target)}::text[]) as u`.execute(trx);
  }
}

async function deleteRows(trx: Trx, docIds: readonly string[], options: { isDocumentToo: boolean }): Promise<void> {
  for (const part of chunks(docIds)) {
    for (const table of ['delivery_values', 'delivery_members', 'delivery_links'] as const)
      await sql`delete from ${sql.table(table)} where doc_id = any(${part}::int8[])`.execute(trx);
    if (options.isDocumentToo)
      await sql`delete from delivery_documents where doc_id = any(${part}::int8[])`.execute(trx);
  }
}

/** The documents of the batch's items now stored, in both channels. */
async function existingDocuments(trx: Trx, projectId: string, itemIds: readonly string[]): Promise<Existing[]> {
  const out: Existing[] = [];
  for (const part of chunks(itemIds)) {
    const rows =
      await sql<Existing>`select doc_id::text, channel, item_id::text, language, hash, codename, type, collection
      from delivery_documents where project_id = ${projectId}::uuid and channel in ('production', 'preview')
        and item_id = any(${part}::uuid[])`.execute(trx);
    out.push(...rows.rows);
  }
  return out;
}

/**
 * Writes a batch's documents in the ledger's transaction (see DeliveryIndexWriter.apply), given
 * the watermark: documents whose content hash changed are replaced with their value rows (one
 * whose read-ahead hint alone changed gets its new body, without a Sync change),
 * documents no longer listed are removed. Returns the Sync changes (the ledger records them, then
 * the model and the watermark) and how many documents it wrote or removed; null when the batch is
 * not newer than the watermark.
 */
export async function writeDocuments(
  trx: Trx,
  batch: IndexBatch,
  watermark: number,
): Promise<LedgerWrite<number> | null> {
  const { projectId } = batch;
  if (watermark >= batch.toSeq) return null;

  const existing = await existingDocuments(trx, projectId, [...new Set(batch.items.map((i) => i.itemId))]);
  const stored = new Map(existing.map((e) => [keyOf(e.channel, e.item_id, e.language), e]));
  const listed = new Set<string>();
  const changed: Rendered[] = [];
  // Only the read-ahead hint differs: the body is written again, nothing else, and no Sync change.
  const hinted: Rendered[] = [];
  for (const { channel, documents } of batch.items) {
    for (const doc of documents) {
      const key = keyOf(channel, doc.itemId, doc.language);
      listed.add(key);
      const rendered = render(channel, doc);
      const before = stored.get(key)?.hash;
      if (before === rendered.stamp) continue;
      if (before?.split(' ')[0] === rendered.hash) hinted.push(rendered);
      else changed.push(rendered);
    }
  }
  const listedItems = new Set(batch.items.map((i) => `${i.channel}\u0000${i.itemId}`));
  const gone = existing.filter(
    (e) => listedItems.has(`${e.channel}\u0000${e.item_id}`) && !listed.has(keyOf(e.channel, e.item_id, e.language)),
  );

  const replaced = changed
    .map((r) => stored.get(keyOf(r.channel, r.doc.itemId, r.doc.language))?.doc_id)
    .filter((id): id is string => id !== undefined);
  await deleteRows(trx, replaced, { isDocumentToo: false });
  const docIds = await upsertDocuments(trx, projectId, changed);
  await upsertDocuments(trx, projectId, hinted);
  await insertRows(
    trx,
    projectId,
    changed.map((rendered) => ({
      docId: docIds.get(keyOf(rendered.channel, rendered.doc.itemId, rendered.doc.language)) ?? '',
      rendered,
    })),
  );

  // A removed document's Sync entry shows its last system object.
  const goneSystems = new Map<string, string>();
  for (const part of chunks(gone.map((g) => g.doc_id))) {
    const rows = await sql<{ doc_id: string; body: string }>`select doc_id::text, body from delivery_documents
      where doc_id = any(${part}::int8[])`.execute(trx);
    for (const r of rows.rows)
      goneSystems.set(r.doc_id, JSON.stringify((JSON.parse(r.body) as IndexedVariant).item.system));
  }
  await deleteRows(
    trx,
    gone.map((g) => g.doc_id),
    { isDocumentToo: true },
  );
  const changes = [
    ...changed.map((r): IndexChangeRow => ({
      channel: r.channel,
      itemId: r.doc.itemId,
      language: r.doc.language,
      changeType: 'changed',
      codename: r.doc.item.system.codename,
      type: r.doc.item.system.type,
      collection: r.doc.item.system.collection,
      system: JSON.stringify(r.doc.item.system),
    })),
    ...gone.map((g): IndexChangeRow => ({
      channel: g.channel,
      itemId: g.item_id,
      language: g.language,
      changeType: 'deleted',
      codename: g.codename,
      type: g.type,
      collection: g.collection,
      system: goneSystems.get(g.doc_id) ?? null,
    })),
  ];
  return { changes, result: changed.length + hinted.length + gone.length };
}
