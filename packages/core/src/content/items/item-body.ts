import type { RecordKey } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { ContentLookups } from '../variants/lookups.ts';
import { zeroId } from '../../model/defaults.ts';
import {
  characterCount,
  checkCodename,
  describeReference,
  generateCodename,
  isRecord,
  readReference,
  recordKeyOf,
  type Problems,
} from '../../model/shared/index.ts';

/** Item names: 1 to 200 characters (SPEC 2.2, the latest limit). */
export const itemNameMax = 200;

/** The fields of an item create or update body, read and checked (references resolved to ids). */
export interface ItemFields {
  readonly name: string | null;
  /** Undefined when not sent. */
  readonly codename: string | undefined;
  readonly typeId: string | undefined;
  readonly typeCodename: string | undefined;
  readonly externalId: string | undefined;
  readonly collectionId: string | undefined;
}

/**
 * Reads `name`, `codename` (v1 recordings accept it too), `type`, `external_id`, `collection` (v2) and ignores everything
 * else (clients post whole exported objects, reference §1.8). Missing types and collections are
 * problems; whether a field is required is the caller's rule.
 */
export async function readItemFields(
  tx: UnitOfWork,
  options: {
    projectId: string;
    body: unknown;
    version: 'v1' | 'v2';
    problems: Problems;
    /** Reads the type and the collection through these (shared at one model version) when given. */
    lookups?: ContentLookups;
  },
): Promise<ItemFields> {
  const find = (kind: 'content_type' | 'collection', key: RecordKey) =>
    options.lookups ? options.lookups.modelObject(kind, key) : tx.model.find(options.projectId, kind, key);
  const { problems } = options;
  const body = isRecord(options.body) ? options.body : {};
  if (!isRecord(options.body)) problems.add(undefined, 'The body must be a JSON object.');
  const rawName = body['name'];
  const name =
    typeof rawName === 'string' && rawName.trim().length > 0 && characterCount(rawName) <= itemNameMax
      ? rawName.trim()
      : null;
  if (name === null) problems.add('name', `Provide a nonempty name which fits within ${itemNameMax} characters.`);
  const rawCodename = body['codename'];
  const codename =
    rawCodename === undefined || rawCodename === null || rawCodename === ''
      ? undefined
      : checkCodename(rawCodename, 'codename', problems)
        ? rawCodename
        : undefined;
  let typeId: string | undefined;
  let typeCodename: string | undefined;
  if (body['type'] !== undefined && body['type'] !== null) {
    const ref = readReference(body['type'], 'type', problems);
    const type = ref ? await find('content_type', recordKeyOf(ref)) : null;
    if (ref && !type) problems.add('type', `The content type with ${describeReference(ref)} was not found.`);
    typeId = type?.id;
    typeCodename = type?.codename;
  }
  const rawExternal = body['external_id'];
  let externalId: string | undefined;
  if (rawExternal !== undefined && rawExternal !== null) {
    if (typeof rawExternal !== 'string' || rawExternal === '')
      problems.add('external_id', 'must be a non-empty string');
    else externalId = rawExternal;
  }
  let collectionId: string | undefined;
  if (options.version === 'v2' && body['collection'] !== undefined && body['collection'] !== null) {
    const ref = readReference(body['collection'], 'collection', problems);
    const collection = ref ? await find('collection', recordKeyOf(ref)) : null;
    if (ref && !collection) problems.add('collection', `The collection with ${describeReference(ref)} was not found.`);
    collectionId = collection?.id;
  }
  const sitemap = body['sitemap_locations'];
  if (sitemap !== undefined && sitemap !== null && !Array.isArray(sitemap))
    problems.add('sitemap_locations', 'must be an array of references');
  return { name, codename, typeId, typeCodename, externalId, collectionId };
}

/** A unique codename made from `name` (the item's own current codename does not count as taken). */
export async function uniqueItemCodename(
  tx: UnitOfWork,
  options: { projectId: string; name: string; id: string; ownCodename?: string },
): Promise<string> {
  const base = generateCodename({ name: options.name, id: options.id, isTaken: () => false });
  const taken = new Set(await tx.items.codenamesStartingWith(options.projectId, base));
  if (options.ownCodename !== undefined) taken.delete(options.ownCodename);
  return generateCodename({ name: options.name, id: options.id, isTaken: (c) => taken.has(c) });
}

export const defaultCollectionId = zeroId;
