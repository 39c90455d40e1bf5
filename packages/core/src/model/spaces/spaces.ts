import type { ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import {
  isAbsent,
  operationMessage,
  readName,
  requireModel,
  resolveModelReferences,
} from '../collections/model-fields.ts';
import {
  deleteModel,
  assertModelAccess,
  at,
  checkCodename,
  idFromExternalId,
  isRecord,
  commitModel,
  describeReference,
  Problems,
  readReference,
  recordKeyOf,
  type ModelInput,
  writeModel,
  createModel,
  readOperations,
} from '../shared/index.ts';

/*
 * Spaces (reference §2.9, §6.5): one model document per space. Collections must exist. The Web
 * Spotlight root item is a content item, which the model store does not hold: it is kept by id;
 * one named by id or codename must exist, and one by external id resolves to the id the item gets
 * when created with it.
 */

/** Stored body of a space, in wire form minus id and codename. */
export interface SpaceBody {
  name: string;
  web_spotlight_root_item: { id: string } | null;
  collections: { id: string }[];
}

export type SpaceRecord = ModelRecord<SpaceBody>;

/** Kind name of content items for ids derived from external ids. */
export const contentItemKind = 'content_item';
export const spaceNameMax = 200;

export function spaceJson(r: SpaceRecord) {
  return {
    id: r.id,
    name: r.body.name,
    codename: r.codename,
    web_spotlight_root_item: r.body.web_spotlight_root_item === null ? null : { id: r.body.web_spotlight_root_item.id },
    collections: r.body.collections.map((c) => ({ id: c.id })),
  };
}

function requireSpace(tx: UnitOfWork, projectId: string, key: RecordKey, isForUpdate = false) {
  return requireModel<SpaceBody>(tx, {
    projectId,
    kind: 'space',
    key,
    notFound: 'SPACE_NOT_FOUND',
    noun: 'space',
    isForUpdate,
  });
}

/**
 * The root item reference: an item that exists, by id or codename, or an item by external id,
 * which may not exist yet (it gets that id when created with the external id). A missing item
 * by id or codename is refused: a stored id would point at nothing.
 */
async function readRootItem(
  tx: UnitOfWork,
  options: { projectId: string; value: unknown; path: string; problems: Problems },
): Promise<SpaceBody['web_spotlight_root_item'] | undefined> {
  const { projectId, value, path, problems } = options;
  if (value === null || value === undefined) return null;
  const ref = readReference(value, path, problems);
  if (!ref) return undefined;
  if ('external_id' in ref)
    return { id: idFromExternalId({ projectId, kind: contentItemKind, externalId: ref.external_id }) };
  const found = await tx.items.find(projectId, recordKeyOf(ref));
  if (found) return { id: found.id };
  problems.add(path, `The content item with ${describeReference(ref)} was not found.`);
  return undefined;
}

async function readCollections(tx: UnitOfWork, projectId: string, value: unknown, path: string, problems: Problems) {
  if (value === undefined || value === null) return [];
  const ids = await resolveModelReferences(tx, {
    projectId,
    kind: 'collection',
    noun: 'collection',
    value,
    path,
    problems,
  });
  return ids.map((id) => ({ id }));
}

export async function listSpaces(deps: CoreDeps, input: ModelInput): Promise<SpaceRecord[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => tx.model.list<SpaceBody>(input.projectId, 'space'));
}

export async function getSpace(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<SpaceRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => requireSpace(tx, input.projectId, input.key));
}

export async function addSpace(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<SpaceRecord> {
  const body = isRecord(input.body) ? input.body : {};
  return writeModel(deps, input, 'space', async (tx) => {
    const problems = new Problems();
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    const name = readName(body['name'], 'name', problems, spaceNameMax);
    const codename = isAbsent(body['codename'])
      ? undefined
      : checkCodename(body['codename'], 'codename', problems)
        ? body['codename']
        : null;
    const root = await readRootItem(tx, {
      projectId: input.projectId,
      value: body['web_spotlight_root_item'],
      path: 'web_spotlight_root_item',
      problems,
    });
    const collections = await readCollections(tx, input.projectId, body['collections'], 'collections', problems);
    const all = await tx.model.list<SpaceBody>(input.projectId, 'space');
    if (typeof codename === 'string' && all.some((s) => s.codename === codename))
      problems.add('codename', `The codename '${codename}' is already used by another space.`);
    problems.throwIfAny();
    return createModel(tx, {
      projectId: input.projectId,
      kind: 'space',
      id: deps.ids.uuid(),
      name: name as string,
      codename: codename ?? undefined,
      externalId: null,
      body: { name: name as string, web_spotlight_root_item: root ?? null, collections },
      siblings: all,
      now: deps.clock.now(),
    });
  });
}

/** PATCH a space: `replace` of name, codename, web_spotlight_root_item or collections; all or none. */
export async function modifySpace(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; operations: unknown },
): Promise<SpaceRecord> {
  return writeModel(deps, input, 'space', async (tx) => {
    const current = await requireSpace(tx, input.projectId, input.key, true);
    const operations = readOperations(input.operations);
    const problems = new Problems();
    let codename = current.codename;
    const body: SpaceBody = { ...current.body };
    for (const [i, op] of operations.entries()) {
      const path = `[${i}]`;
      if (!isRecord(op) || op['op'] !== 'replace') {
        problems.add(at(path, 'op'), operationMessage(i, 'spaces support only the "replace" operation (lower case).'));
        continue;
      }
      const value = op['value'];
      const valuePath = at(path, 'value');
      switch (op['property_name']) {
        case 'name': {
          const name = readName(value, valuePath, problems, spaceNameMax);
          if (name !== null) body.name = name;
          break;
        }
        case 'codename':
          if (checkCodename(value, valuePath, problems)) codename = value;
          break;
        case 'web_spotlight_root_item': {
          const root = await readRootItem(tx, { projectId: input.projectId, value, path: valuePath, problems });
          if (root !== undefined) body.web_spotlight_root_item = root;
          break;
        }
        case 'collections':
          if (!Array.isArray(value)) problems.add(valuePath, 'must be an array of reference objects');
          else body.collections = await readCollections(tx, input.projectId, value, valuePath, problems);
          break;
        default:
          // Open input: `property_name` as the request spells it.
          problems.add(
            at(path, 'property_name'),
            operationMessage(i, 'property_name must be name, codename, web_spotlight_root_item or collections.'),
          );
      }
    }
    const all = await tx.model.list<SpaceBody>(input.projectId, 'space');
    if (all.some((s) => s.id !== current.id && s.codename === codename))
      problems.add('codename', `The codename '${codename}' is already used by another space.`);
    problems.throwIfAny();
    const next: SpaceRecord = { ...current, codename, body, lastModified: deps.clock.now() };
    await commitModel(tx, 'update', next);
    return next;
  });
}

export async function deleteSpace(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  await deleteModel(deps, input, {
    kind: 'space',
    require: (tx) => requireSpace(tx, input.projectId, input.key, true),
  });
}
