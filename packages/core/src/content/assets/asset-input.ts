import type { UnitOfWork } from '../../ports/store.ts';
import { zeroId } from '../../model/defaults.ts';
import {
  at,
  characterCount,
  checkCodename,
  describeReference,
  isRecord,
  readReference,
  recordKeyOf,
  type Problems,
} from '../../model/shared/index.ts';
import { isAbsent, readExternalId } from '../../model/collections/model-fields.ts';
import type { AssetElementValue, AssetRecord, BinaryFileRecord } from './asset-record.ts';
import { findFolder } from './folders.ts';

/** What a POST or PUT asset body sets; `undefined` leaves a field as it is (or at its default). */
export interface AssetChanges {
  file?: BinaryFileRecord;
  title?: string | null;
  codename?: string;
  externalId?: string;
  descriptions?: Record<string, string>;
  folderId?: string | null;
  collectionId?: string | null;
  elements?: AssetElementValue[];
}

export const assetTitleMax = 500;

/**
 * Reads an asset body (reference §2.8), recording every problem. `assetId` is the asset being
 * changed (null when creating), so the file it already has does not count as used. `isV1` skips
 * the fields v1 does not have (folder, codename, collection, elements), as v1 ignored them.
 */
export async function readAssetBody(
  tx: UnitOfWork,
  options: {
    projectId: string;
    body: unknown;
    problems: Problems;
    assetId: string | null;
    isExternalIdAllowed: boolean;
    isV1: boolean;
  },
): Promise<AssetChanges> {
  const { projectId, problems } = options;
  const changes: AssetChanges = {};
  if (!isRecord(options.body)) {
    problems.add(undefined, 'The body must be a JSON object.');
    return changes;
  }
  const body = options.body;

  const fileRef = body['file_reference'];
  if (fileRef !== undefined && fileRef !== null) {
    const file = await readFileReference(tx, { projectId, value: fileRef, problems, assetId: options.assetId });
    if (file) changes.file = file;
  }

  const title = body['title'];
  if (title === null) changes.title = null;
  else if (title !== undefined) {
    if (typeof title !== 'string' || characterCount(title) > assetTitleMax)
      problems.add('title', `must be a string of at most ${assetTitleMax} characters, or null`);
    else changes.title = title.trim() === '' ? null : title;
  }

  if (options.isExternalIdAllowed) {
    const ext = readExternalId(body['external_id'], 'external_id', problems);
    if (typeof ext === 'string') {
      const owner = await tx.assets.find(projectId, { externalId: ext });
      if (owner && owner.id !== options.assetId)
        problems.add('external_id', `The external id '${ext}' is already used by another asset.`);
      else changes.externalId = ext;
    }
  }

  const descriptions = body['descriptions'];
  if (descriptions !== undefined && descriptions !== null)
    changes.descriptions = await readDescriptions(tx, { projectId, value: descriptions, problems });

  if (options.isV1) return changes;

  if (!isAbsent(body['codename']) && checkCodename(body['codename'], 'codename', problems)) {
    const codename = body['codename'];
    if (await tx.assets.isCodenameTaken(projectId, codename, options.assetId ?? undefined))
      problems.add('codename', `The codename '${codename}' is already used by another asset.`);
    else changes.codename = codename;
  }

  const folder = body['folder'];
  if (folder !== undefined && folder !== null) {
    const ref = readReference(folder, 'folder', problems);
    if (ref && 'id' in ref && ref.id === zeroId) changes.folderId = null;
    else if (ref) {
      const tree = await tx.assetFolders.get(projectId);
      const found = findFolder(tree?.folders ?? [], ref);
      if (found) changes.folderId = found.id;
      else problems.add('folder', `The folder with ${describeReference(ref)} was not found.`);
    }
  }

  const collection = body['collection'];
  if (collection !== undefined && collection !== null) {
    if (!isRecord(collection) || !('reference' in collection))
      problems.add('collection', 'must be an object {"reference": <reference or null>}');
    else if (collection['reference'] === null) changes.collectionId = null;
    else {
      const ref = readReference(collection['reference'], 'collection.reference', problems);
      const found = ref ? await tx.model.find(projectId, 'collection', recordKeyOf(ref)) : null;
      if (found) changes.collectionId = found.id;
      else if (ref)
        problems.add('collection.reference', `The collection with ${describeReference(ref)} was not found.`);
    }
  }

  const elements = body['elements'];
  if (elements !== undefined && elements !== null) changes.elements = readElements(elements, problems);
  return changes;
}

async function readFileReference(
  tx: UnitOfWork,
  options: { projectId: string; value: unknown; problems: Problems; assetId: string | null },
): Promise<BinaryFileRecord | null> {
  const { value, problems } = options;
  if (!isRecord(value) || typeof value['id'] !== 'string') {
    problems.add('file_reference', 'must be an object {"id": <file id>, "type": "internal"}');
    return null;
  }
  // SDK-NET of the v1 era sent the enum value 0 for "internal" (reference §1.8).
  const type = value['type'];
  if (type !== undefined && type !== 'internal' && type !== 0) {
    problems.add('file_reference.type', 'must be "internal"');
    return null;
  }
  const ref = readReference({ id: value['id'] }, 'file_reference', problems);
  if (!ref || !('id' in ref)) return null;
  const file = await tx.binaryFiles.get(options.projectId, ref.id);
  if (!file) {
    problems.add(
      'file_reference.id',
      `The binary file with id '${ref.id}' was not found. Upload it with POST /files/<name> first.`,
    );
    return null;
  }
  const user = await tx.assets.findByFile(options.projectId, file.id);
  if (user && user.id !== options.assetId) {
    problems.add(
      'file_reference.id',
      `The binary file '${file.id}' is already used by the asset '${user.id}'. Each file can be used by one asset.`,
    );
    return null;
  }
  return file;
}

async function readDescriptions(
  tx: UnitOfWork,
  options: { projectId: string; value: unknown; problems: Problems },
): Promise<Record<string, string>> {
  const { problems } = options;
  const out: Record<string, string> = {};
  if (!Array.isArray(options.value)) {
    problems.add('descriptions', 'must be an array of {"language": <reference>, "description": <text>}');
    return out;
  }
  for (const [i, entry] of options.value.entries()) {
    const path = at('descriptions', i);
    if (!isRecord(entry)) {
      problems.add(path, 'must be an object {"language": <reference>, "description": <text>}');
      continue;
    }
    const description = entry['description'];
    if (description !== null && typeof description !== 'string') {
      problems.add(at(path, 'description'), 'must be a string or null');
    }
    const ref = readReference(entry['language'], at(path, 'language'), problems);
    if (!ref) continue;
    const language = await tx.model.find(options.projectId, 'language', recordKeyOf(ref));
    if (!language) {
      problems.add(at(path, 'language'), `The language with ${describeReference(ref)} was not found.`);
      continue;
    }
    if (language.id in out) problems.add(at(path, 'language'), 'Each language can have one description.');
    if (typeof description === 'string' && description !== '') out[language.id] = description;
  }
  return out;
}

/**
 * Asset taxonomy elements. Lectern has no asset type yet, so elements and terms are kept as given,
 * by id: codename and external id references cannot be resolved and are refused.
 */
function readElements(value: unknown, problems: Problems): AssetElementValue[] {
  const out: AssetElementValue[] = [];
  if (!Array.isArray(value)) {
    problems.add('elements', 'must be an array of {"element": <reference>, "value": [<reference>]}');
    return out;
  }
  const byId = (v: unknown, path: string): string | null => {
    const ref = readReference(v, path, problems);
    if (ref && !('id' in ref)) problems.add(path, 'Reference asset elements and terms by id.');
    return ref && 'id' in ref ? ref.id : null;
  };
  for (const [i, entry] of value.entries()) {
    const path = at('elements', i);
    if (!isRecord(entry) || !Array.isArray(entry['value'])) {
      problems.add(path, 'must be an object {"element": <reference>, "value": [<reference>]}');
      continue;
    }
    const element = byId(entry['element'], at(path, 'element'));
    const terms = entry['value'].map((v, j) => byId(v, at(at(path, 'value'), j)));
    if (element !== null && terms.every((t) => t !== null))
      out.push({ element: { id: element }, value: [...new Set(terms as string[])].map((id) => ({ id })) });
  }
  return out;
}

/** The record a create produces from its changes (file_reference required, checked by the caller). */
export function newAssetRecord(options: {
  projectId: string;
  id: string;
  codename: string;
  externalId: string | null;
  file: BinaryFileRecord;
  changes: AssetChanges;
  now: Date;
}): AssetRecord {
  const c = options.changes;
  return {
    projectId: options.projectId,
    id: options.id,
    codename: options.codename,
    externalId: options.externalId,
    fileId: options.file.id,
    title: c.title ?? null,
    folderId: c.folderId ?? null,
    collectionId: c.collectionId ?? null,
    descriptions: c.descriptions ?? {},
    elements: c.elements ?? [],
    lastModified: options.now,
  };
}
