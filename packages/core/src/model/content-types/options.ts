import { isUuid } from '../../domain/uuid.ts';
import { at, checkCodename, generateCodename, isRecord, type Problems } from '../shared/index.ts';
import { isAbsent, readExternalId, readName } from './fields.ts';

/** Options of a multiple choice element may have longer codenames than other objects (reference §1.4). */
const optionCodenameMax = 200;

export interface OptionBody {
  readonly id: string;
  readonly codename: string;
  readonly name: string;
  readonly external_id?: string;
}

/**
 * Reads the options of a multiple choice element, in the order sent. Ids were assigned before
 * (see `assignIds`); codenames are checked, or generated from the name, unique within the element.
 */
export function readOptions(value: unknown, path: string, problems: Problems): OptionBody[] {
  if (!Array.isArray(value)) {
    problems.add(path, 'is required: an array of options {name, codename?, external_id?}');
    return [];
  }
  const read = value.map((o, i) => {
    const p = at(path, i);
    if (!isRecord(o)) {
      problems.add(p, 'must be an option object {name, codename?, external_id?}');
      return null;
    }
    const name = readName(o['name'], at(p, 'name'), problems);
    const externalId = readExternalId(o['external_id'], at(p, 'external_id'), problems);
    const codename = isAbsent(o['codename']) || o['codename'] === '' ? null : o['codename'];
    if (codename !== null) checkCodename(codename, at(p, 'codename'), problems, optionCodenameMax);
    const id = typeof o['id'] === 'string' && isUuid(o['id']) ? o['id'] : '';
    return { id, name, codename: typeof codename === 'string' ? codename : null, externalId, path: p };
  });
  const taken = new Set<string>();
  const ids = new Set<string>();
  for (const o of read) {
    if (!o) continue;
    if (ids.has(o.id)) problems.add(o.path, 'Two options have the same id or external id.');
    ids.add(o.id);
    if (o.codename === null) continue;
    if (taken.has(o.codename)) problems.add(at(o.path, 'codename'), `The codename '${o.codename}' is used twice.`);
    taken.add(o.codename);
  }
  const out: OptionBody[] = [];
  for (const o of read) {
    if (!o || o.name === null) continue;
    const codename =
      o.codename ?? generateCodename({ name: o.name, id: o.id, isTaken: (c) => taken.has(c), max: optionCodenameMax });
    taken.add(codename);
    out.push({
      id: o.id,
      codename,
      name: o.name,
      ...(o.externalId === undefined ? {} : { external_id: o.externalId }),
    });
  }
  return out;
}
