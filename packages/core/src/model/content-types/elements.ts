import { isUuid } from '../../domain/uuid.ts';
import { at, checkCodename, codenameMax, generateCodename, isRecord, type Problems } from '../shared/index.ts';
import { readKindProperties } from './element-kinds.ts';
import { isAbsent, readBoolean, readExternalId, readName, readNullableString } from './fields.ts';
import { readGroups, resolveGroup } from './groups.ts';
import type { IdAssigner } from './ids.ts';
import type { ModelLookups } from './lookups.ts';
import { elementTypes, type ContentGroupBody, type ElementBody, type ElementType } from './model.ts';
import type { ReadElement } from './read-element.ts';
import { resolveElementReferences } from './references.ts';

export interface DefinitionInput {
  readonly lookups: ModelLookups;
  /** The raw content groups (types only; undefined for snippets). */
  readonly groups?: unknown;
  readonly elements: unknown;
  /** Ids of new objects (`IdAssigner`); null when every object was stored before. */
  readonly ids: IdAssigner | null;
  /** Ids stored before this request: references to them are kept without a lookup. */
  readonly trusted: ReadonlySet<string>;
}

const withoutName: readonly ElementType[] = ['guidelines', 'snippet'];

async function readElement(raw: unknown, path: string, input: DefinitionInput, problems: Problems) {
  if (!isRecord(raw)) {
    problems.add(path, 'must be an element object');
    return null;
  }
  const type = raw['type'] as ElementType;
  if (typeof type !== 'string' || !elementTypes.includes(type)) {
    problems.add(at(path, 'type'), `must be one of ${elementTypes.join(', ')}`);
    return null;
  }
  const isSnippet = input.lookups.container.kind === 'snippet';
  if (isSnippet && (type === 'snippet' || type === 'url_slug')) {
    problems.add(at(path, 'type'), `A content type snippet cannot contain ${type} elements.`);
    return null;
  }
  const id = typeof raw['id'] === 'string' && isUuid(raw['id']) ? raw['id'] : '';
  const kind = await readKindProperties(type, raw, path, { lookups: input.lookups, trusted: input.trusted }, problems);
  let name: string | null = null;
  const common: Record<string, unknown> = {};
  if (!withoutName.includes(type)) {
    name =
      type === 'taxonomy' && isAbsent(raw['name'])
        ? (kind.defaultName ?? null) // an unknown group is reported on taxonomy_group
        : readName(raw['name'], at(path, 'name'), problems);
    common['name'] = name;
  }
  if (type === 'guidelines') {
    if (typeof raw['guidelines'] !== 'string') problems.add(at(path, 'guidelines'), 'is required: a string of HTML');
    common['guidelines'] = typeof raw['guidelines'] === 'string' ? raw['guidelines'] : '';
  } else if (type !== 'snippet') {
    common['guidelines'] = readNullableString(raw['guidelines'], at(path, 'guidelines'), problems);
    common['is_required'] = readBoolean(raw['is_required'], at(path, 'is_required'), problems);
    common['is_non_localizable'] =
      type === 'rich_text' ? false : readBoolean(raw['is_non_localizable'], at(path, 'is_non_localizable'), problems);
  }
  const rawCodename = raw['codename'];
  let codename: string | null = null;
  if (typeof rawCodename === 'string' && rawCodename !== '') codename = rawCodename;
  else if (!isAbsent(rawCodename) && rawCodename !== '') problems.add(at(path, 'codename'), 'must be a string');
  return {
    path,
    id,
    type,
    isFresh: input.ids?.fresh.has(id) ?? false,
    common,
    externalId: readExternalId(raw['external_id'], at(path, 'external_id'), problems),
    name,
    codename,
    kind,
    contentGroup: undefined,
    rawGroup: raw['content_group'],
  };
}

/**
 * Element codenames (SPEC 2.6 rule 5): unique within the type, counting the elements its snippets
 * bring in; a new snippet element takes the snippet's codename; new elements of a snippet are
 * prefixed `<snippet codename>__`; missing ones are generated from the name (guidelines: the id).
 */
function assignCodenames(elements: ReadElement[], input: DefinitionInput, problems: Problems): void {
  const container = input.lookups.container;
  const prefix = container.kind === 'snippet' ? `${container.codename}__` : '';
  const taken = new Map<string, string>();
  const take = (codename: string, path: string) => {
    if (taken.has(codename)) problems.add(path, `The codename '${codename}' is already used by another element.`);
    taken.set(codename, path);
  };
  for (const e of elements) {
    if (e.type === 'snippet' && e.isFresh && e.kind.fixedCodename !== undefined) e.codename = e.kind.fixedCodename;
    if (e.codename === null) continue;
    const p = at(e.path, 'codename');
    if (e.isFresh && prefix !== '' && typeof e.codename === 'string' && !e.codename.startsWith(prefix)) {
      if (checkCodename(e.codename, p, problems)) e.codename = `${prefix}${e.codename}`;
    } else if (!checkCodename(e.codename, p, problems, prefix === '' ? codenameMax : 2 * codenameMax + 2)) {
      e.codename = null;
      continue;
    }
    take(e.codename, p);
    for (const inner of e.kind.usedSnippet?.body.elements ?? []) take(inner.codename, p);
  }
  for (const e of elements) {
    if (e.codename !== null) continue;
    const base = e.type === 'guidelines' ? e.id : e.type === 'taxonomy' ? (e.kind.defaultName ?? e.name) : e.name;
    if (base === null || base === undefined) continue;
    const generated = generateCodename({
      name: base,
      id: e.id,
      isTaken: (c) => taken.has(`${prefix}${c}`),
      max: codenameMax,
    });
    e.codename = `${prefix}${generated}`;
    take(e.codename, at(e.path, 'codename'));
  }
}

function toBody(e: ReadElement): ElementBody {
  const { name, guidelines, is_required, is_non_localizable } = e.common;
  const has = (k: string) => k in e.common;
  return {
    ...(has('name') ? { name } : {}),
    ...(has('guidelines') ? { guidelines } : {}),
    ...(has('is_required') ? { is_required } : {}),
    ...(has('is_non_localizable') ? { is_non_localizable } : {}),
    type: e.type,
    id: e.id,
    codename: e.codename as string,
    ...(e.externalId === undefined ? {} : { external_id: e.externalId }),
    ...e.kind.props,
    ...(e.contentGroup === undefined ? {} : { content_group: e.contentGroup }),
  };
}

/**
 * Reads and checks the elements (and, for types, content groups) of a definition as a whole:
 * every problem is added to `problems`; the result is meaningful only when none was added.
 */
export async function readDefinition(
  input: DefinitionInput,
  problems: Problems,
): Promise<{ content_groups: ContentGroupBody[]; elements: ElementBody[] }> {
  const isType = input.lookups.container.kind === 'content_type';
  const groups = isType ? readGroups(input.groups, 'content_groups', problems) : [];
  if (!Array.isArray(input.elements)) {
    problems.add('elements', 'is required: an array of elements');
    return { content_groups: groups, elements: [] };
  }
  const read: (ReadElement & { rawGroup: unknown })[] = [];
  for (const [i, raw] of input.elements.entries()) {
    const e = await readElement(raw, at('elements', i), input, problems);
    if (e) read.push(e);
  }
  const ids = new Set<string>();
  for (const e of read) {
    if (ids.has(e.id)) problems.add(e.path, 'Two elements have the same id or external id.');
    ids.add(e.id);
    if (isType) e.contentGroup = resolveGroup(e.rawGroup, at(e.path, 'content_group'), groups, input.ids, problems);
    else if (!isAbsent(e.rawGroup))
      problems.add(at(e.path, 'content_group'), 'Elements of a content type snippet have no content groups.');
  }
  const slugs = read.filter((e) => e.type === 'url_slug');
  for (const extra of slugs.slice(1)) problems.add(extra.path, 'A content type can have only one URL slug element.');
  const snippetIds = new Set<string>();
  for (const e of read.filter((x) => x.kind.usedSnippet)) {
    const sid = e.kind.usedSnippet?.id as string;
    if (snippetIds.has(sid)) problems.add(at(e.path, 'snippet'), 'The snippet is already used in this content type.');
    snippetIds.add(sid);
  }
  assignCodenames(read, input, problems);
  const bodies = read.map(toBody);
  resolveElementReferences({ read, bodies, ids: input.ids }, problems);
  return { content_groups: groups, elements: bodies };
}
