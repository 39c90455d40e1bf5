import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import type { RecordKey } from '../../domain/model-record.ts';
import {
  assertMayChange,
  assertModelAccess,
  defaultPageSize,
  idFromExternalId,
  keysetAfter,
  keysetPage,
  Problems,
  type Continuation,
  type ModelInput,
  type Page,
} from '../../model/shared/index.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { ContentLookups } from '../variants/lookups.ts';
import { requireItem } from '../variants/load.ts';
import { contentEvents } from './events.ts';
import { defaultCollectionId, readItemFields, uniqueItemCodename, type ItemFields } from './item-body.ts';
import { itemJson, type ContentItemJson, type ContentItemRecord } from './item-record.ts';

export interface ItemInput extends ModelInput {
  readonly version?: 'v1' | 'v2';
}

async function render(
  tx: UnitOfWork,
  item: ContentItemRecord,
  version: 'v1' | 'v2',
  lookups = new ContentLookups(tx, item.projectId),
): Promise<ContentItemJson> {
  const spaces = version === 'v2' ? await lookups.spacesOf(item.collectionId) : [];
  return itemJson(item, { version, spaces });
}

/**
 * Appends the item's change events at commit (with the transaction's audit entry, one statement).
 * `lookups` reads the type's codename (from the store's memo when it knows the model version).
 */
async function appendItemEvents(
  tx: UnitOfWork,
  operation: string,
  item: ContentItemRecord,
  at: Date,
  lookups = new ContentLookups(tx, item.projectId),
): Promise<void> {
  const type = await lookups.modelObject('content_type', { id: item.typeId });
  const events = contentEvents(operation, ['delivery_production', 'delivery_preview'], item, {
    typeCodename: type?.codename ?? '',
  });
  tx.outbox.appendAtCommit(item.projectId, events, at);
}

/**
 * One page of the project's items (100 per page), in creation order, read by key from the store: a
 * page costs the same wherever it starts, and items created or deleted between pages never make
 * the others repeat or go missing. The page renders with one read of the spaces.
 */
export async function listItems(
  deps: CoreDeps,
  input: ItemInput & { continuation?: Continuation | undefined },
): Promise<Page<ContentItemJson>> {
  assertModelAccess(input.actor, input.projectId);
  const list = { name: 'items', scope: [input.projectId], keyLength: 1 };
  const after = keysetAfter(list, input.continuation);
  return deps.store.transaction(async (tx) => {
    const page = keysetPage(list, await tx.items.page(input.projectId, { after, limit: defaultPageSize }));
    const lookups = new ContentLookups(tx, input.projectId);
    const items = [];
    for (const item of page.items) items.push(await render(tx, item, input.version ?? 'v2', lookups));
    return { items, continuationToken: page.continuationToken };
  });
}

export async function getItem(deps: CoreDeps, input: ItemInput & { key: RecordKey }): Promise<ContentItemJson> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) =>
    render(tx, await requireItem(tx, input.projectId, input.key), input.version ?? 'v2'),
  );
}

async function createItem(
  deps: CoreDeps,
  tx: UnitOfWork,
  input: ItemInput,
  fields: ItemFields,
  problems: Problems,
  context: {
    lookups: ContentLookups;
    /**
     * The caller found no item of this external id in this transaction and read whether the id
     * it maps to is taken (then neither is read again; a concurrent create of either fails the
     * insert, and `writeItem` runs again).
     */
    externalIdCheck?: { isDerivedIdTaken: boolean };
  },
): Promise<ContentItemRecord> {
  if (fields.typeId === undefined && problems.isEmpty)
    problems.add('type', "Provide the content item's content type (a reference by id, codename or external_id).");
  if (
    fields.externalId !== undefined &&
    context.externalIdCheck === undefined &&
    (await tx.items.find(input.projectId, { externalId: fields.externalId }))
  )
    problems.add('external_id', `The external id '${fields.externalId}' is already used by another content item.`);
  if (fields.codename !== undefined && (await tx.items.find(input.projectId, { codename: fields.codename })))
    problems.add('codename', `The codename '${fields.codename}' is already used by another content item.`);
  problems.throwIfAny();
  const id =
    fields.externalId === undefined
      ? deps.ids.uuid()
      : idFromExternalId({ projectId: input.projectId, kind: 'content_item', externalId: fields.externalId });
  const isIdTaken = context.externalIdCheck
    ? context.externalIdCheck.isDerivedIdTaken
    : (await tx.items.find(input.projectId, { id })) !== null;
  if (isIdTaken)
    throw new LecternError('INVALID_REQUEST_BODY', {
      problems: [
        { path: 'external_id', message: 'A content item with the id this external id maps to already exists.' },
      ],
    });
  const item: ContentItemRecord = {
    projectId: input.projectId,
    id,
    name: fields.name as string,
    codename:
      fields.codename ??
      (await uniqueItemCodename(tx, { projectId: input.projectId, name: fields.name as string, id })),
    externalId: fields.externalId ?? null,
    typeId: fields.typeId as string,
    collectionId: fields.collectionId ?? defaultCollectionId,
    sitemapLocations: [],
    lastModified: deps.clock.now(),
  };
  await tx.items.insert(item);
  await appendItemEvents(tx, 'create', item, item.lastModified, context.lookups);
  return item;
}

/** How many times an item write runs when a concurrent write took the codename or id it chose. */
const itemWriteAttempts = 3;

/**
 * A write of an item from a request body: the permission check, then a transaction that runs
 * `locate` (what the write reads first, with the project's content model version in the same
 * statement), reads the body's fields and runs `work`. No project-wide lock: two writes racing for
 * one codename, external id or derived id meet at the store's unique index (the second waits for
 * the first's commit and gets `CONFLICT`), and the loser runs again, now seeing the winner's item
 * (a generated codename takes the next suffix, a sent one is refused as taken, an upsert by
 * external id updates).
 */
async function writeItem<T, F>(
  deps: CoreDeps,
  input: ItemInput & { body: unknown },
  locate: (tx: UnitOfWork) => Promise<{ found: F; modelVersion: string | null }>,
  work: (
    tx: UnitOfWork,
    read: { found: F; fields: ItemFields; problems: Problems; version: 'v1' | 'v2'; lookups: ContentLookups },
  ) => Promise<T>,
): Promise<T> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  const version = input.version ?? 'v2';
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.store.transaction(async (tx) => {
        const { found, modelVersion } = await locate(tx);
        // The type, collection and spaces the write reads come from the store's memo while the
        // model version is unchanged (issue 35).
        const lookups = new ContentLookups(tx, input.projectId, modelVersion);
        const problems = new Problems();
        const fields = await readItemFields(tx, {
          projectId: input.projectId,
          body: input.body,
          version,
          problems,
          lookups,
        });
        return await work(tx, { found, fields, problems, version, lookups });
      });
    } catch (error) {
      if (!(error instanceof LecternError && error.code === 'CONFLICT') || attempt === itemWriteAttempts) throw error;
    }
  }
}

/** POST /items (SPEC 4.1): 201 with the new item. An external id gives the item its derived id. */
export async function addItem(deps: CoreDeps, input: ItemInput & { body: unknown }): Promise<ContentItemJson> {
  return writeItem(
    deps,
    input,
    async (tx) => ({ found: null, modelVersion: await tx.items.modelVersion(input.projectId) }),
    async (tx, { fields, problems, version, lookups }) =>
      render(tx, await createItem(deps, tx, input, fields, problems, { lookups }), version, lookups),
  );
}

/**
 * PUT /items/{identifier} (SPEC 4.1 upsert rules): updates an existing item; creates one only when
 * addressed by an unused external id. An external id cannot be added to or changed on an existing
 * item, nor its type. v2 keeps the codename on rename unless one is sent; v1 regenerates it.
 */
export async function upsertItem(
  deps: CoreDeps,
  input: ItemInput & { key: RecordKey; body: unknown },
): Promise<{ item: ContentItemJson; isCreated: boolean }> {
  const { key } = input;
  // The item locked, and by external id in the same statement whether the id it maps to is taken.
  const locate = async (tx: UnitOfWork) => {
    if ('externalId' in key) {
      const derivedId = idFromExternalId({
        projectId: input.projectId,
        kind: 'content_item',
        externalId: key.externalId,
      });
      const { item, isDerivedIdTaken, modelVersion } = await tx.items.findByExternalIdForUpsert(
        input.projectId,
        key.externalId,
        derivedId,
      );
      return { found: { item, isDerivedIdTaken }, modelVersion };
    }
    const forWrite = await tx.items.findForWrite(input.projectId, key);
    return forWrite
      ? { found: { item: forWrite.item, isDerivedIdTaken: false }, modelVersion: forWrite.modelVersion }
      : { found: { item: null, isDerivedIdTaken: false }, modelVersion: await tx.items.modelVersion(input.projectId) };
  };
  return writeItem(deps, input, locate, async (tx, { found, fields, problems, version, lookups }) => {
    const current = found.item;
    if (!current) {
      if (!('externalId' in key)) {
        problems.throwIfAny();
        await requireItem(tx, input.projectId, key);
      }
      const externalId = (key as { externalId: string }).externalId;
      if (fields.externalId !== undefined && fields.externalId !== externalId)
        problems.add('external_id', 'must be the external id in the path, or be left out');
      const item = await createItem(deps, tx, input, { ...fields, externalId }, problems, {
        lookups,
        externalIdCheck: { isDerivedIdTaken: found.isDerivedIdTaken },
      });
      return { item: await render(tx, item, version, lookups), isCreated: true };
    }
    if (fields.externalId !== undefined && fields.externalId !== current.externalId)
      problems.add('external_id', 'An external id cannot be upserted into an existing content item.');
    if (fields.typeId !== undefined && fields.typeId !== current.typeId)
      problems.add('type', 'The content type of an existing content item cannot be changed.');
    if (fields.codename !== undefined && fields.codename !== current.codename) {
      const other = await tx.items.find(input.projectId, { codename: fields.codename });
      if (other) problems.add('codename', `The codename '${fields.codename}' is already used by another content item.`);
    }
    problems.throwIfAny();
    const name = fields.name as string;
    const codename =
      fields.codename ??
      (version === 'v1' && name !== current.name
        ? await uniqueItemCodename(tx, {
            projectId: input.projectId,
            name,
            id: current.id,
            ownCodename: current.codename,
          })
        : current.codename);
    const next: ContentItemRecord = {
      ...current,
      name,
      codename,
      collectionId: fields.collectionId ?? current.collectionId,
      lastModified: deps.clock.now(),
    };
    await tx.items.update(next);
    await appendItemEvents(tx, 'metadata_changed', next, next.lastModified, lookups);
    return { item: await render(tx, next, version, lookups), isCreated: false };
  });
}

/** DELETE /items/{identifier}: the item and all its variants (and their scheduled jobs). */
export async function deleteItem(deps: CoreDeps, input: ItemInput & { key: RecordKey }): Promise<void> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  await deps.store.transaction(async (tx) => {
    const item = await requireItem(tx, input.projectId, input.key, true);
    for (const v of await tx.variants.listByItem(input.projectId, item.id))
      await tx.scheduledJobs.cancel({ projectId: input.projectId, itemId: item.id, languageId: v.languageId });
    await tx.items.delete(input.projectId, item.id);
    await appendItemEvents(tx, 'delete', item, deps.clock.now());
  });
}
