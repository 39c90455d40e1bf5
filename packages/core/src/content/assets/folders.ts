import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import type { NewChangeEvent } from '../../domain/change-event.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import {
  assertMayChange,
  assertModelAccess,
  at,
  checkCodename,
  describeReference,
  generateCodename,
  idFromExternalId,
  isRecord,
  Problems,
  readReference,
  type ModelInput,
  type Reference,
  opNameOf,
  readOperations,
} from '../../model/shared/index.ts';
import { isAbsent, operationMessage, readExternalId, readName } from '../../model/collections/model-fields.ts';
import type { AssetFolder, AssetFolderTree } from './asset-record.ts';
import { assetEvents } from './events.ts';

/*
 * Asset folders (reference §2.8, §6.3): one tree per project, stored whole. POST creates the first
 * tree; PATCH applies addInto / rename / remove in order on a copy and saves it only when every
 * operation is valid. Codenames and external ids are unique across the tree. Removing a folder
 * moves the assets in it (and in its subfolders) to the root.
 */

export const folderNameMax = 250;
export const assetFolderKind = 'asset_folder';

/** Mutable working copy of a folder. */
interface Draft {
  id: string;
  name: string;
  codename: string;
  externalId: string | null;
  folders: Draft[];
}

function toDraft(f: AssetFolder): Draft {
  return { ...f, folders: f.folders.map(toDraft) };
}

function* walk(
  folders: readonly Draft[],
  parent: Draft | null = null,
): Generator<{ folder: Draft; parent: Draft | null }> {
  for (const folder of folders) {
    yield { folder, parent };
    yield* walk(folder.folders, folder);
  }
}

/** An asset folder as the Management API answers it (management-sdk-js `fake-list-asset-folders.json`). */
export type AssetFolderJson = {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  /** Only when set. */
  readonly external_id?: string;
  readonly folders: AssetFolderJson[];
};

function folderJson(f: AssetFolder): AssetFolderJson {
  return {
    id: f.id,
    name: f.name,
    codename: f.codename,
    ...(f.externalId === null ? {} : { external_id: f.externalId }),
    folders: f.folders.map(folderJson),
  };
}

/** `{folders, last_modified}` of GET, POST and PATCH `/folders`. */
export function assetFoldersJson(tree: AssetFolderTree) {
  return { folders: tree.folders.map(folderJson), last_modified: tree.lastModified.toISOString() };
}

/** The folder a reference names, searching the whole tree, or undefined. */
export function findFolder(folders: readonly AssetFolder[], ref: Reference): AssetFolder | undefined {
  for (const { folder } of walk(folders.map(toDraft))) {
    if (
      'id' in ref
        ? folder.id === ref.id
        : 'codename' in ref
          ? folder.codename === ref.codename
          : folder.externalId === ref.external_id
    )
      return folder;
  }
  return undefined;
}

async function loadTree(tx: UnitOfWork, projectId: string, isForUpdate = false): Promise<AssetFolderTree> {
  const tree = await tx.assetFolders.get(projectId, { isForUpdate });
  if (tree) return tree;
  const project = await tx.projects.get(projectId);
  return { folders: [], lastModified: project?.createdAt ?? new Date(0) };
}

/** The folder tree of the project (`{folders: []}` before any was added). */
export async function listAssetFolders(deps: CoreDeps, input: ModelInput): Promise<AssetFolderTree> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => loadTree(tx, input.projectId));
}

/** Reads new folders (with their subfolders), giving them ids and codenames unique in `all`. */
class FolderReader {
  readonly #deps: CoreDeps;
  readonly #projectId: string;
  readonly #all: Draft[];
  readonly #problems: Problems;
  constructor(options: { deps: CoreDeps; projectId: string; all: Draft[]; problems: Problems }) {
    this.#deps = options.deps;
    this.#projectId = options.projectId;
    this.#all = options.all;
    this.#problems = options.problems;
  }

  #taken(field: 'codename' | 'externalId' | 'id', value: string, extra: readonly Draft[]): boolean {
    for (const { folder } of walk([...this.#all, ...extra])) if (folder[field] === value) return true;
    return false;
  }

  /** Reads `value` as a new folder; null when invalid (problems recorded). `pending` are read siblings not yet placed. */
  read(value: unknown, path: string, pending: Draft[] = []): Draft | null {
    if (!isRecord(value)) {
      this.#problems.add(path, 'must be a folder object with a name');
      return null;
    }
    const name = readName(value['name'], at(path, 'name'), this.#problems, folderNameMax);
    const ext = readExternalId(value['external_id'], at(path, 'external_id'), this.#problems);
    let codename: string | null | undefined;
    if (!isAbsent(value['codename']))
      codename = checkCodename(value['codename'], at(path, 'codename'), this.#problems) ? value['codename'] : null;
    if (typeof codename === 'string' && this.#taken('codename', codename, pending))
      this.#problems.add(at(path, 'codename'), `The codename '${codename}' is already used by another folder.`);
    if (typeof ext === 'string' && this.#taken('externalId', ext, pending))
      this.#problems.add(at(path, 'external_id'), `The external id '${ext}' is already used by another folder.`);
    const children = value['folders'];
    if (children !== undefined && children !== null && !Array.isArray(children))
      this.#problems.add(at(path, 'folders'), 'must be an array of folders');
    if (name === null || codename === null || ext === null) return null;
    const id =
      typeof ext === 'string'
        ? idFromExternalId({ projectId: this.#projectId, kind: assetFolderKind, externalId: ext })
        : this.#deps.ids.uuid();
    const draft: Draft = {
      id,
      name,
      codename: codename ?? generateCodename({ name, id, isTaken: (c) => this.#taken('codename', c, pending) }),
      externalId: ext ?? null,
      folders: [],
    };
    const siblings = [...pending, draft];
    for (const [i, child] of (Array.isArray(children) ? children : []).entries()) {
      const read = this.read(child, at(at(path, 'folders'), i), siblings);
      if (read) {
        draft.folders.push(read);
        siblings.push(read);
      }
    }
    return draft;
  }
}

async function saveTree(
  tx: UnitOfWork,
  deps: CoreDeps,
  projectId: string,
  folders: readonly Draft[],
  movedFrom: readonly string[] = [],
): Promise<AssetFolderTree> {
  const now = deps.clock.now();
  const tree: AssetFolderTree = { folders, lastModified: now };
  await tx.assetFolders.save(projectId, tree);
  const events: NewChangeEvent[] = [
    { objectKind: assetFolderKind, operation: 'update', objectId: null, channel: 'management', payload: {} },
  ];
  for (const moved of await tx.assets.moveToRoot(projectId, movedFrom, now))
    events.push(...assetEvents('update', moved));
  await tx.outbox.append(projectId, events, now);
  return tree;
}

/** POST /folders: the first folder tree of the project (400 ASSET_FOLDERS_EXIST once there is one). */
export async function addAssetFolders(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<AssetFolderTree> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  return deps.store.transaction(async (tx) => {
    const current = await loadTree(tx, input.projectId, true);
    if (current.folders.length > 0) throw new LecternError('ASSET_FOLDERS_EXIST');
    const problems = new Problems();
    const body = isRecord(input.body) ? input.body : {};
    if (!Array.isArray(body['folders'])) {
      problems.add('folders', 'must be an array of folders');
      problems.throwIfAny();
    }
    const all: Draft[] = [];
    const reader = new FolderReader({ deps, projectId: input.projectId, all, problems });
    for (const [i, value] of (body['folders'] as unknown[]).entries()) {
      const folder = reader.read(value, at('folders', i));
      if (folder) all.push(folder);
    }
    problems.throwIfAny();
    return saveTree(tx, deps, input.projectId, all);
  });
}

/** Finds a folder by reference in the working tree, recording a problem when absent. */
function locate(
  all: Draft[],
  value: unknown,
  path: string,
  problems: Problems,
  message: (text: string) => string,
): { folder: Draft; siblings: Draft[] } | null {
  const ref = readReference(value, path, problems);
  if (!ref) return null;
  for (const { folder, parent } of walk(all)) {
    const isMatch =
      'id' in ref
        ? folder.id === ref.id
        : 'codename' in ref
          ? folder.codename === ref.codename
          : folder.externalId === ref.external_id;
    if (isMatch) return { folder, siblings: parent ? parent.folders : all };
  }
  problems.add(path, message(`The folder with ${describeReference(ref)} was not found.`));
  return null;
}

/** PATCH /folders (reference §6.3): addInto, rename and remove, applied in order, all or none. */
export async function modifyAssetFolders(
  deps: CoreDeps,
  input: ModelInput & { operations: unknown },
): Promise<AssetFolderTree> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  return deps.store.transaction(async (tx) => {
    const current = await loadTree(tx, input.projectId, true);
    const operations = readOperations(input.operations);
    const problems = new Problems();
    const all = current.folders.map(toDraft);
    const removed: string[] = [];
    for (const [i, op] of operations.entries()) {
      const path = `[${i}]`;
      const msg = (text: string) => operationMessage(i, text);
      const name = isRecord(op) ? opNameOf(op['op'], ['addInto', 'addinto', 'rename', 'remove']) : '';
      if (!isRecord(op) || name === '') {
        problems.add(at(path, 'op'), msg('op must be addInto, rename or remove (case-sensitive).'));
        continue;
      }
      if (name === 'rename') {
        const target = locate(all, op['reference'], at(path, 'reference'), problems, msg);
        const newName = readName(op['value'], at(path, 'value'), problems, folderNameMax);
        if (target && newName !== null) target.folder.name = newName;
      } else if (name === 'remove') {
        const target = locate(all, op['reference'], at(path, 'reference'), problems, msg);
        if (!target) continue;
        target.siblings.splice(target.siblings.indexOf(target.folder), 1);
        for (const { folder } of walk([target.folder])) removed.push(folder.id);
      } else {
        const parent =
          op['reference'] === undefined || op['reference'] === null
            ? null
            : locate(all, op['reference'], at(path, 'reference'), problems, msg);
        if (parent === null && op['reference'] !== undefined && op['reference'] !== null) continue;
        const into = parent ? parent.folder.folders : all;
        const folder = new FolderReader({ deps, projectId: input.projectId, all, problems }).read(
          op['value'],
          at(path, 'value'),
        );
        if (!folder) continue;
        let index = into.length;
        for (const side of ['before', 'after'] as const) {
          if (op[side] === undefined || op[side] === null) continue;
          const sibling = locate(into, op[side], at(path, side), problems, msg);
          if (sibling && sibling.siblings !== into) {
            problems.add(at(path, side), msg(`The ${side} folder must be a sibling of the new folder.`));
          } else if (sibling) index = into.indexOf(sibling.folder) + (side === 'after' ? 1 : 0);
        }
        into.splice(index, 0, folder);
      }
    }
    problems.throwIfAny();
    return saveTree(tx, deps, input.projectId, all, removed);
  });
}
