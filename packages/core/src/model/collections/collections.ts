import { assertNever, LecternError, type ValidationProblem } from '@lectern/errors';
import type { ModelRecord } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { zeroId } from '../system-ids.ts';
import {
  assertModelAccess,
  at,
  checkCodename,
  generateCodename,
  idFromExternalId,
  isRecord,
  modelEvent,
  Problems,
  type ModelInput,
  type Reference,
  writeModel,
  opNameOf,
} from '../shared/index.ts';
import { isAbsent, operationMessage, readExternalId, readLooseReference, readName } from './model-fields.ts';

/*
 * Collections (reference §2.9, §6.4) are stored one document per collection, so other resources
 * resolve references to them with an ordinary model lookup. `position` keeps the list order that
 * PATCH `addInto`/`move` set. The list's `last_modified` is the latest change of any collection;
 * a PATCH that only removes collections touches the default collection's stamp so it still advances.
 */

/** Stored body of a collection: its name and its place in the list. */
export interface CollectionBody {
  name: string;
  position: number;
}

export type CollectionRecord = ModelRecord<CollectionBody>;

export const collectionNameMax = 200;
/** Kontent.ai exports collection codenames of 200 characters (generated from 200-character names). */
export const collectionCodenameMax = 200;

export function collectionJson(r: CollectionRecord) {
  return {
    id: r.id,
    name: r.body.name,
    codename: r.codename,
    ...(r.externalId === null ? {} : { external_id: r.externalId }),
  };
}

/** `{collections, last_modified}` of GET and PATCH `/collections`. */
export function collectionsJson(list: readonly CollectionRecord[]) {
  const latest = Math.max(...list.map((c) => c.lastModified.getTime()));
  return {
    collections: list.map(collectionJson),
    last_modified: Number.isFinite(latest) ? new Date(latest).toISOString() : null,
  };
}

async function loadCollections(tx: UnitOfWork, projectId: string): Promise<CollectionRecord[]> {
  const all = await tx.model.list<CollectionBody>(projectId, 'collection');
  return all
    .map((c, i) => ({ c, i }))
    .sort((a, b) => a.c.body.position - b.c.body.position || a.i - b.i)
    .map((x) => x.c);
}

export async function listCollections(deps: CoreDeps, input: ModelInput): Promise<CollectionRecord[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => loadCollections(tx, input.projectId));
}

interface Entry {
  id: string;
  name: string;
  codename: string;
  externalId: string | null;
}

function indexOf(entries: readonly Entry[], ref: Reference): number {
  return entries.findIndex((e) =>
    'id' in ref ? e.id === ref.id : 'codename' in ref ? e.codename === ref.codename : e.externalId === ref.external_id,
  );
}

/** Ids of collections that spaces, workflow scopes or content items refer to, which cannot be removed. */
async function usedCollectionIds(tx: UnitOfWork, projectId: string): Promise<Set<string>> {
  const used = new Set<string>();
  for (const space of await tx.model.list<{ collections?: { id: string }[] }>(projectId, 'space'))
    for (const c of space.body.collections ?? []) used.add(c.id);
  for (const workflow of await tx.model.list<{ scopes?: { collections?: { id: string }[] }[] }>(projectId, 'workflow'))
    for (const scope of workflow.body.scopes ?? []) for (const c of scope.collections ?? []) used.add(c.id);
  for (const id of await tx.items.collectionIds(projectId)) used.add(id);
  return used;
}

function applyOne(options: {
  entries: Entry[];
  raw: unknown;
  index: number;
  problems: Problems;
  used: ReadonlySet<string>;
  projectId: string;
  newId: () => string;
}): void {
  const { entries, index, problems } = options;
  const path = `[${index}]`;
  const fail = (field: string | undefined, message: string) =>
    problems.add(field === undefined ? path : at(path, field), operationMessage(index, message));
  if (!isRecord(options.raw)) return fail(undefined, 'An operation must be an object.');
  const raw = options.raw;
  const op = opNameOf(raw['op'], ['addInto', 'addinto', 'move', 'remove', 'replace']);
  const ref = (field: string) =>
    raw[field] === undefined || raw[field] === null ? null : readLooseReference(raw[field], at(path, field), problems);
  const reference = ref('reference');
  const before = ref('before');
  const after = ref('after');
  if (!problems.isEmpty) return;
  const locate = (r: Reference | null, field: string): number => {
    if (r === null) {
      fail(field, `Provide ${field}.`);
      return -1;
    }
    const i = indexOf(entries, r);
    if (i < 0) fail(field, 'The referenced object was not found.');
    return i;
  };
  const insertAt = (entry: Entry): void => {
    if (before && after) return fail('after', 'Provide either before or after, not both.');
    const anchor = before ?? after;
    const i = anchor === null ? entries.length : locate(anchor, before ? 'before' : 'after');
    if (i < 0) return;
    entries.splice(anchor === null ? i : i + (after ? 1 : 0), 0, entry);
  };
  switch (op) {
    case 'addinto': {
      const value = isRecord(raw['value']) ? raw['value'] : {};
      if (!isRecord(raw['value']))
        return fail('value', 'Provide the collection to add as {name, codename?, external_id?}.');
      const name = readName(value['name'], at(path, 'value.name'), problems, collectionNameMax);
      const codename = isAbsent(value['codename'])
        ? ''
        : checkCodename(value['codename'], at(path, 'value.codename'), problems, collectionCodenameMax)
          ? value['codename']
          : null;
      const ext = readExternalId(value['external_id'] ?? value['externalId'], at(path, 'value.external_id'), problems);
      if (name === null || codename === null || ext === null) return;
      if (ext !== undefined && entries.some((e) => e.externalId === ext))
        return fail('value.external_id', `The external id '${ext}' is already used by another collection.`);
      const id =
        ext === undefined
          ? options.newId()
          : idFromExternalId({ projectId: options.projectId, kind: 'collection', externalId: ext });
      const chosen =
        codename !== ''
          ? codename
          : generateCodename({
              name,
              id,
              isTaken: (c) => entries.some((e) => e.codename === c),
              max: collectionCodenameMax,
            });
      return insertAt({ id, name, codename: chosen, externalId: ext ?? null });
    }
    case 'move': {
      const i = locate(reference, 'reference');
      if (i < 0) return;
      if (!before && !after) return fail('before', 'Provide before or after.');
      const [moved] = entries.splice(i, 1);
      return insertAt(moved as Entry);
    }
    case 'remove': {
      const i = locate(reference, 'reference');
      if (i < 0) return;
      const target = entries[i] as Entry;
      if (target.id === zeroId) return fail('reference', 'The default collection cannot be removed.');
      if (options.used.has(target.id))
        return fail('reference', `The collection '${target.codename}' is still used and cannot be removed.`);
      entries.splice(i, 1);
      return;
    }
    case 'replace': {
      const i = locate(reference, 'reference');
      if (i < 0) return;
      const target = entries[i] as Entry;
      if (raw['property_name'] === 'name') {
        const name = readName(raw['value'], at(path, 'value'), problems, collectionNameMax);
        if (name !== null) target.name = name;
      } else if (raw['property_name'] === 'codename') {
        if (checkCodename(raw['value'], at(path, 'value'), problems, collectionCodenameMax))
          target.codename = raw['value'];
      } else fail('property_name', 'property_name must be name or codename.');
      return;
    }
    case '':
      fail('op', 'op must be addInto, move, remove or replace (case-sensitive).');
      return;
    default:
      assertNever(op, 'collection operation');
  }
}

/** PATCH `/collections`: operations apply in order, all or none; answers the whole list. */
export async function setCollections(
  deps: CoreDeps,
  input: ModelInput & { operations: unknown },
): Promise<CollectionRecord[]> {
  return writeModel(deps, input, 'collection', async (tx) => {
    if (!Array.isArray(input.operations) || input.operations.length === 0)
      throw new LecternError('INVALID_REQUEST_BODY', {
        problems: [{ message: 'The body must be a non-empty array of operations.' }],
      });
    const current = await loadCollections(tx, input.projectId);
    const used = await usedCollectionIds(tx, input.projectId);
    let entries: Entry[] = current.map((c) => ({
      id: c.id,
      name: c.body.name,
      codename: c.codename,
      externalId: c.externalId,
    }));
    const all: ValidationProblem[] = [];
    for (const [index, raw] of (input.operations as unknown[]).entries()) {
      const problems = new Problems();
      const next = entries.map((e) => ({ ...e }));
      applyOne({ entries: next, raw, index, problems, used, projectId: input.projectId, newId: () => deps.ids.uuid() });
      const taken = new Set<string>();
      for (const e of next) {
        if (taken.has(e.codename) && problems.isEmpty)
          problems.add(`[${index}]`, operationMessage(index, `The codename '${e.codename}' is already used.`));
        taken.add(e.codename);
      }
      const found = problems.list;
      if (found.length === 0) entries = next;
      else all.push(...found);
    }
    if (all.length > 0) throw new LecternError('INVALID_REQUEST_BODY', { problems: all });
    return saveCollections(tx, { deps, projectId: input.projectId, current, entries });
  });
}

async function saveCollections(
  tx: UnitOfWork,
  options: { deps: CoreDeps; projectId: string; current: readonly CollectionRecord[]; entries: readonly Entry[] },
): Promise<CollectionRecord[]> {
  const now = options.deps.clock.now();
  const byId = new Map(options.current.map((c) => [c.id, c]));
  const kept = new Set(options.entries.map((e) => e.id));
  const removed = options.current.filter((c) => !kept.has(c.id));
  const events = removed.map((c) => modelEvent('delete', c));
  for (const c of removed) await tx.model.delete(options.projectId, 'collection', c.id);
  const result: CollectionRecord[] = [];
  const inserts: CollectionRecord[] = [];
  // Updates go before inserts, so a codename freed by a rename can be taken by a new collection.
  for (const [position, e] of options.entries.entries()) {
    const old = byId.get(e.id);
    const record: CollectionRecord = {
      projectId: options.projectId,
      kind: 'collection',
      id: e.id,
      codename: e.codename,
      externalId: e.externalId,
      body: { name: e.name, position },
      lastModified: now,
    };
    const isChanged =
      old !== undefined && (old.codename !== e.codename || old.body.name !== e.name || old.body.position !== position);
    const isTouched = old !== undefined && removed.length > 0 && e.id === zeroId;
    if (!old) inserts.push(record);
    else if (isChanged || isTouched) {
      await tx.model.update(record);
      if (isChanged) events.push(modelEvent('update', record));
    }
    result.push(old && !isChanged && !isTouched ? old : record);
  }
  for (const record of inserts) {
    await tx.model.insert(record);
    events.push(modelEvent('create', record));
  }
  if (events.length > 0) await tx.outbox.append(options.projectId, events, now);
  return result;
}
