import { isUuid } from '../../domain/uuid.ts';
import {
  at,
  checkCodename,
  describeReference,
  generateCodename,
  isRecord,
  readReference,
  type Problems,
} from '../shared/index.ts';
import { isAbsent, readExternalId, readName } from './fields.ts';
import type { IdAssigner } from './ids.ts';
import type { ContentGroupBody } from './model.ts';

/** Reads the content groups of a type in the order sent (reference §5); ids were assigned before. */
export function readGroups(value: unknown, path: string, problems: Problems): ContentGroupBody[] {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) {
    problems.add(path, 'must be an array of content groups {name, codename?, external_id?}');
    return [];
  }
  const taken = new Set<string>();
  const ids = new Set<string>();
  const read = value.map((g, i) => {
    const p = at(path, i);
    if (!isRecord(g)) {
      problems.add(p, 'must be a content group {name, codename?, external_id?}');
      return null;
    }
    const name = readName(g['name'], at(p, 'name'), problems);
    const externalId = readExternalId(g['external_id'], at(p, 'external_id'), problems);
    const id = typeof g['id'] === 'string' && isUuid(g['id']) ? g['id'] : '';
    if (ids.has(id)) problems.add(p, 'Two content groups have the same id or external id.');
    ids.add(id);
    let codename: string | null = null;
    if (!isAbsent(g['codename']) && g['codename'] !== '') {
      if (checkCodename(g['codename'], at(p, 'codename'), problems)) {
        codename = g['codename'];
        if (taken.has(codename)) problems.add(at(p, 'codename'), `The codename '${codename}' is used twice.`);
        taken.add(codename);
      }
    }
    return name === null ? null : { id, name, codename, externalId };
  });
  const out: ContentGroupBody[] = [];
  for (const g of read) {
    if (!g) continue;
    const codename = g.codename ?? generateCodename({ name: g.name, id: g.id, isTaken: (c) => taken.has(c) });
    taken.add(codename);
    out.push({
      id: g.id,
      name: g.name,
      codename,
      ...(g.externalId === undefined ? {} : { external_id: g.externalId }),
    });
  }
  return out;
}

/**
 * The group an element belongs to. Once a type has groups every element names one (reference §5);
 * without groups an element names none. New groups are usually named by external id (SPEC 2.1
 * rule 5); codenames and ids are accepted too.
 */
export function resolveGroup(
  value: unknown,
  path: string,
  groups: readonly ContentGroupBody[],
  ids: IdAssigner | null,
  problems: Problems,
): { id: string } | undefined {
  if (groups.length === 0) {
    if (!isAbsent(value)) problems.add(path, 'The content type has no content groups; remove content_group.');
    return undefined;
  }
  if (isAbsent(value)) {
    problems.add(path, 'The content type has content groups, so every element must be assigned to one.');
    return undefined;
  }
  const ref = readReference(value, path, problems);
  if (!ref) return undefined;
  const found = groups.find((g) =>
    'id' in ref
      ? g.id === (ids?.mapped(ref.id) ?? ref.id)
      : 'codename' in ref
        ? g.codename === ref.codename
        : g.external_id === ref.external_id,
  );
  if (!found) {
    problems.add(path, `The content group with ${describeReference(ref)} was not found in this content type.`);
    return undefined;
  }
  return { id: found.id };
}
