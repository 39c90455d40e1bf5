import type { RecordKey } from '../../domain/model-record.ts';
import { isUuid } from '../../domain/uuid.ts';
import { at, isRecord, type Problems } from './problems.ts';

/** A reference object in a request body (SPEC 2.1): exactly one identifier. */
export type Reference = { readonly id: string } | { readonly codename: string } | { readonly external_id: string };

/**
 * Reads a reference object, recording a problem (and returning null) unless it holds exactly one
 * non-empty identifier and an id is a uuid. Other properties are ignored, as clients post whole
 * exported objects.
 */
export function readReference(value: unknown, path: string, problems: Problems): Reference | null {
  if (!isRecord(value)) {
    problems.add(path, 'must be a reference object with one of id, codename or external_id');
    return null;
  }
  const present = (['id', 'codename', 'external_id'] as const).filter(
    (k) => value[k] !== undefined && value[k] !== null,
  );
  if (present.length !== 1) {
    problems.add(path, 'a reference must have exactly one of id, codename or external_id');
    return null;
  }
  const key = present[0] as 'id' | 'codename' | 'external_id';
  const raw = value[key];
  if (typeof raw !== 'string' || raw.length === 0) {
    problems.add(at(path, key), 'must be a non-empty string');
    return null;
  }
  if (key === 'id' && !isUuid(raw)) {
    problems.add(at(path, key), `Property 'id' must be a valid Guid identifier.`);
    return null;
  }
  return key === 'id' ? { id: raw.toLowerCase() } : key === 'codename' ? { codename: raw } : { external_id: raw };
}

export function recordKeyOf(reference: Reference): RecordKey {
  if ('id' in reference) return { id: reference.id };
  if ('codename' in reference) return { codename: reference.codename };
  return { externalId: reference.external_id };
}

/** A reference as written in messages: `id 'x'`, `codename 'y'`, `external id 'z'`. */
export function describeReference(reference: Reference | RecordKey): string {
  if ('id' in reference) return `id '${reference.id}'`;
  if ('codename' in reference) return `codename '${reference.codename}'`;
  return `external id '${'external_id' in reference ? reference.external_id : reference.externalId}'`;
}
