import { LecternError, type ErrorCode } from '@lectern/errors';
import type { ModelKind, ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import {
  characterCount,
  at,
  describeReference,
  idFromExternalId,
  isRecord,
  readReference,
  recordKeyOf,
  type Problems,
  type Reference,
} from '../shared/index.ts';

/*
 * Field readers shared by the taxonomy, collection, workflow and space modules. Each records a
 * problem under the given JSON path instead of throwing, so a response lists every problem.
 */

/** Display names: non-empty after trimming and at most `max` characters. Returns the trimmed name. */
export function readName(value: unknown, path: string, problems: Problems, max = 200): string | null {
  if (typeof value !== 'string' || value.trim().length === 0 || characterCount(value) > max) {
    problems.add(path, `Provide a nonempty name which fits within ${max} characters.`);
    return null;
  }
  return value.trim();
}

/** An optional external id: `undefined` when absent (missing or null), null when invalid (problem recorded). */
export function readExternalId(value: unknown, path: string, problems: Problems): string | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length === 0) {
    problems.add(path, 'must be a non-empty string');
    return null;
  }
  return value;
}

/** An optional codename: absent when missing, null or '' (SDK-NET sends '' meaning "generate"). */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** One stored object or the resource's not-found error. */
export async function requireModel<B extends object>(
  tx: UnitOfWork,
  options: {
    projectId: string;
    kind: ModelKind;
    key: RecordKey;
    notFound: ErrorCode;
    noun: string;
    isForUpdate?: boolean;
  },
): Promise<ModelRecord<B>> {
  const found = await tx.model.find<B>(options.projectId, options.kind, options.key, {
    isForUpdate: options.isForUpdate ?? false,
  });
  if (!found)
    throw new LecternError(options.notFound, {
      message: `The ${options.noun} with ${describeReference(options.key)} was not found.`,
    });
  return found;
}

/**
 * Resolves a reference object to the id of an object of `kind`. A reference by external id to an
 * object that does not exist yet resolves to the id that object will get (reference §1.3) when
 * `isForwardAllowed`; otherwise, and for ids and codenames, the object must exist.
 */
export async function resolveModelReference(
  tx: UnitOfWork,
  options: {
    projectId: string;
    kind: ModelKind;
    noun: string;
    value: unknown;
    path: string;
    problems: Problems;
    isForwardAllowed?: boolean;
  },
): Promise<string | null> {
  const ref = readReference(options.value, options.path, options.problems);
  if (!ref) return null;
  const found = await tx.model.find(options.projectId, options.kind, recordKeyOf(ref));
  if (found) return found.id;
  if ('external_id' in ref && options.isForwardAllowed === true)
    return idFromExternalId({ projectId: options.projectId, kind: options.kind, externalId: ref.external_id });
  options.problems.add(options.path, `The ${options.noun} with ${describeReference(ref)} was not found.`);
  return null;
}

/** Resolves an array of references, recording one problem per bad entry; duplicates collapse. */
export async function resolveModelReferences(
  tx: UnitOfWork,
  options: Omit<Parameters<typeof resolveModelReference>[1], 'value'> & { value: unknown },
): Promise<string[]> {
  if (!Array.isArray(options.value)) {
    options.problems.add(options.path, 'must be an array of reference objects');
    return [];
  }
  const ids: string[] = [];
  for (const [i, item] of options.value.entries()) {
    const id = await resolveModelReference(tx, { ...options, value: item, path: at(options.path, i) });
    if (id !== null && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * Reads a reference object, also accepting `externalId`: the SDK-JS typings of taxonomy and
 * collection PATCH references (`SharedModels.IReferenceObject`) spell it in camelCase and the SDK
 * sends it unchanged, so code that follows its types would otherwise fail.
 */
export function readLooseReference(value: unknown, path: string, problems: Problems): Reference | null {
  if (isRecord(value) && value['external_id'] === undefined && value['externalId'] !== undefined) {
    const { externalId, ...rest } = value;
    return readReference({ ...rest, external_id: externalId }, path, problems);
  }
  return readReference(value, path, problems);
}

/** The message prefix Kontent.ai uses for problems of one PATCH operation. */
export function operationMessage(index: number, message: string): string {
  return `Invalid operation with index '${index}': ${message}`;
}
