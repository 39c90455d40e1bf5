import { LecternError } from '@lectern/errors';
import type { RecordKey } from '../../domain/model-record.ts';
import { systemStepIds, zeroId } from '../../model/defaults.ts';
import type { SpaceBody } from '../../model/spaces/spaces.ts';
import { at, isRecord, Problems, readReference, recordKeyOf, type Reference } from '../../model/shared/index.ts';
import type { TaxonomyBody } from '../../model/taxonomies/index.ts';
import type { ContentLookups } from './lookups.ts';
import { publishingStates, type PublishingState } from './variant-query.ts';

/*
 * The body of `POST /items-with-variant/filter` (reference §3.3) read into ids. Every filter is
 * optional or null; an empty array is refused, as Kontent.ai does; a reference to a missing object
 * is a problem at its path.
 */

export const completionStatuses = ['unfinished', 'ready', 'completed', 'not_translated', 'all_done'] as const;
export type CompletionStatus = (typeof completionStatuses)[number];

export interface VariantFilter {
  languageId: string;
  searchPhrase: string | null;
  typeIds: Set<string> | null;
  collectionIds: Set<string> | null;
  componentTypeIds: Set<string> | null;
  contributorIds: Set<string> | null;
  hasNoContributors: boolean;
  completion: Set<CompletionStatus> | null;
  steps: { workflowId: string; stepIds: Set<string> }[] | null;
  taxonomies: { elementTermIds: Set<string>; includeUncategorized: boolean; groupId: string }[] | null;
  publishing: Set<PublishingState> | null;
  order: { by: 'last_modified' | 'name' | 'due_date'; direction: 'asc' | 'desc' } | null;
}

/** Longest search phrase, in characters: a name is at most 200; longer can match nothing. */
export const maxSearchPhraseLength = 200;
/** Most references (or entries) one filter array may hold; each is resolved by a lookup. */
export const maxFilterReferences = 100;

/** Refuses, before any lookup, arrays longer than maxFilterReferences anywhere in the filters. */
function checkSizes(f: Record<string, unknown>, problems: Problems): boolean {
  let isOk = true;
  const check = (raw: unknown, path: string) => {
    if (Array.isArray(raw) && raw.length > maxFilterReferences) {
      problems.add(path, `must hold at most ${maxFilterReferences} entries`);
      isOk = false;
    }
  };
  for (const [name, raw] of Object.entries(f)) {
    check(raw, `filters.${name}`);
    if (!Array.isArray(raw) || raw.length > maxFilterReferences) continue;
    for (const [i, entry] of raw.entries()) {
      if (!isRecord(entry)) continue;
      check(entry['step_identifiers'], at(at(`filters.${name}`, i), 'step_identifiers'));
      check(entry['term_identifiers'], at(at(`filters.${name}`, i), 'term_identifiers'));
    }
  }
  const search = f['search_phrase'];
  if (typeof search === 'string' && search.length > maxSearchPhraseLength) {
    problems.add('filters.search_phrase', `must be at most ${maxSearchPhraseLength} characters`);
    isOk = false;
  }
  return isOk;
}

type Kind = 'content_type' | 'collection' | 'space' | 'language' | 'workflow' | 'taxonomy';

async function refId(lookups: ContentLookups, kind: Kind, ref: Reference): Promise<string | null> {
  const key: RecordKey = recordKeyOf(ref);
  const found = await lookups.tx.model.find(lookups.projectId, kind, key);
  return found ? found.id : null;
}

/** A non-empty array of references to objects of `kind`, or null when absent. */
async function readRefs(
  lookups: ContentLookups,
  options: { raw: unknown; path: string; kind: Kind; problems: Problems },
): Promise<string[] | null> {
  const { raw, path, kind, problems } = options;
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add(path, 'must be a non-empty array of references, or null');
    return null;
  }
  const ids: string[] = [];
  for (const [i, value] of raw.entries()) {
    const ref = readReference(value, at(path, i), problems);
    if (!ref) continue;
    const id = await refId(lookups, kind, ref);
    if (id === null) problems.add(at(path, i), `The ${kind.replace('_', ' ')} was not found.`);
    else ids.push(id);
  }
  return ids;
}

function readChoices<T extends string>(raw: unknown, path: string, choices: readonly T[], problems: Problems) {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add(path, 'must be a non-empty array, or null');
    return null;
  }
  const bad = raw.filter((v) => !choices.includes(v as T));
  if (bad.length > 0)
    throw new LecternError('FILTER_VALUE_INVALID', {
      message: `Invalid value ${JSON.stringify(bad[0])} in ${path}. Use ${choices.join(', ')}.`,
      problems: [{ path, message: `must hold only ${choices.join(', ')}` }],
    });
  return new Set(raw as T[]);
}

async function readSteps(lookups: ContentLookups, raw: unknown, problems: Problems) {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add('workflow_steps', 'must be a non-empty array, or null');
    return null;
  }
  const workflows = await lookups.workflows();
  const out: NonNullable<VariantFilter['steps']> = [];
  for (const [i, entry] of raw.entries()) {
    const path = at('filters.workflow_steps', i);
    const wfRef = readReference(
      isRecord(entry) ? entry['workflow_identifier'] : undefined,
      at(path, 'workflow_identifier'),
      problems,
    );
    const workflow = wfRef
      ? workflows.find((w) =>
          'id' in wfRef ? w.id === wfRef.id : 'codename' in wfRef && w.codename === wfRef.codename,
        )
      : undefined;
    if (wfRef && !workflow) problems.add(at(path, 'workflow_identifier'), 'The workflow was not found.');
    const stepRefs = isRecord(entry) ? entry['step_identifiers'] : undefined;
    if (!Array.isArray(stepRefs) || stepRefs.length === 0) {
      problems.add(at(path, 'step_identifiers'), 'must be a non-empty array of references');
      continue;
    }
    if (!workflow) continue;
    const steps = [
      ...workflow.body.steps.map((s) => ({ id: s.id, codename: s.codename })),
      { id: systemStepIds.published, codename: 'published' },
      { id: systemStepIds.scheduled, codename: 'scheduled' },
      { id: systemStepIds.archived, codename: 'archived' },
    ];
    const stepIds = new Set<string>();
    for (const [j, value] of stepRefs.entries()) {
      const ref = readReference(value, at(at(path, 'step_identifiers'), j), problems);
      const step = ref
        ? steps.find((s) => ('id' in ref ? s.id === ref.id : 'codename' in ref && s.codename === ref.codename))
        : undefined;
      if (ref && !step) problems.add(at(at(path, 'step_identifiers'), j), 'The step is not a step of the workflow.');
      if (step) stepIds.add(step.id);
    }
    out.push({ workflowId: workflow.id, stepIds });
  }
  return out;
}

function termIdsOf(terms: TaxonomyBody['terms']): { id: string; codename: string; external_id?: string }[] {
  return terms.flatMap((t) => [t, ...termIdsOf(t.terms)]);
}

async function readTaxonomies(lookups: ContentLookups, raw: unknown, problems: Problems) {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add('filters.taxonomy_groups', 'must be a non-empty array, or null');
    return null;
  }
  const out: NonNullable<VariantFilter['taxonomies']> = [];
  for (const [i, entry] of raw.entries()) {
    const path = at('filters.taxonomy_groups', i);
    const e = isRecord(entry) ? entry : {};
    const ref = readReference(e['taxonomy_identifier'], at(path, 'taxonomy_identifier'), problems);
    const group = ref
      ? await lookups.tx.model.find<TaxonomyBody>(lookups.projectId, 'taxonomy', recordKeyOf(ref))
      : null;
    if (ref && !group) problems.add(at(path, 'taxonomy_identifier'), 'The taxonomy group was not found.');
    if (!group) continue;
    const all = termIdsOf(group.body.terms);
    const termIds = new Set<string>();
    const raws = Array.isArray(e['term_identifiers']) ? e['term_identifiers'] : [];
    for (const [j, value] of raws.entries()) {
      const tref = readReference(value, at(at(path, 'term_identifiers'), j), problems);
      const term = tref
        ? all.find((t) =>
            'id' in tref
              ? t.id === tref.id
              : 'codename' in tref
                ? t.codename === tref.codename
                : t.external_id === tref.external_id,
          )
        : undefined;
      if (tref && !term) problems.add(at(at(path, 'term_identifiers'), j), 'The term is not in the taxonomy group.');
      if (term) termIds.add(term.id);
    }
    out.push({ elementTermIds: termIds, includeUncategorized: e['include_uncategorized'] === true, groupId: group.id });
  }
  return out;
}

async function readContributors(lookups: ContentLookups, raw: unknown, problems: Problems) {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add('filters.contributors', 'must be a non-empty array of {"id"} or {"email"}, or null');
    return null;
  }
  const ids = new Set<string>();
  for (const [i, c] of raw.entries()) {
    const id = isRecord(c) && typeof c['id'] === 'string' && c['id'] !== '' ? c['id'] : null;
    const email = isRecord(c) && typeof c['email'] === 'string' ? c['email'] : null;
    const user = email === null ? null : await lookups.tx.users.findByEmail(email);
    if (id) ids.add(id);
    else if (user) ids.add(user.id);
    else
      problems.add(
        at('filters.contributors', i),
        email ? `The user '${email}' was not found.` : 'must be {"id"} or {"email"}',
      );
  }
  return ids;
}

/** Reads and resolves the whole body; every problem at once (400), or a filter value 265. */
export async function readVariantFilter(lookups: ContentLookups, body: unknown): Promise<VariantFilter> {
  const problems = new Problems();
  const root = isRecord(body) ? body : {};
  if (body !== undefined && body !== null && !isRecord(body))
    problems.add(undefined, 'The body must be a JSON object.');
  const f = isRecord(root['filters']) ? root['filters'] : {};
  if (root['filters'] !== undefined && root['filters'] !== null && !isRecord(root['filters']))
    problems.add('filters', 'must be an object');
  const p = (name: string) => `filters.${name}`;
  if (!checkSizes(f, problems)) problems.throwIfAny();
  let languageId = zeroId;
  if (f['language'] !== undefined && f['language'] !== null) {
    const ref = readReference(f['language'], p('language'), problems);
    const id = ref ? await refId(lookups, 'language', ref) : null;
    if (ref && id === null) problems.add(p('language'), 'The language was not found.');
    if (id) languageId = id;
  }
  const search = f['search_phrase'];
  if (search !== undefined && search !== null && typeof search !== 'string')
    problems.add(p('search_phrase'), 'must be a string');
  const spaces = await readRefs(lookups, { raw: f['spaces'], path: p('spaces'), kind: 'space', problems });
  const collections = await readRefs(lookups, {
    raw: f['collections'],
    path: p('collections'),
    kind: 'collection',
    problems,
  });
  let collectionIds = collections === null ? null : new Set(collections);
  if (spaces !== null) {
    const fromSpaces = new Set<string>();
    for (const id of spaces) {
      const space = await lookups.tx.model.find<SpaceBody>(lookups.projectId, 'space', { id });
      for (const c of space?.body.collections ?? []) fromSpaces.add(c.id);
    }
    collectionIds = collectionIds === null ? fromSpaces : new Set([...collectionIds].filter((c) => fromSpaces.has(c)));
  }
  const types = await readRefs(lookups, {
    raw: f['content_types'],
    path: p('content_types'),
    kind: 'content_type',
    problems,
  });
  const components = await readRefs(lookups, {
    raw: f['component_types'],
    path: p('component_types'),
    kind: 'content_type',
    problems,
  });
  const filter: VariantFilter = {
    languageId,
    searchPhrase: typeof search === 'string' && search.trim() !== '' ? search.trim() : null,
    typeIds: types === null ? null : new Set(types),
    collectionIds,
    componentTypeIds: components === null ? null : new Set(components),
    contributorIds: await readContributors(lookups, f['contributors'], problems),
    hasNoContributors: f['has_no_contributors'] === true,
    completion: readChoices(f['completion_statuses'], p('completion_statuses'), completionStatuses, problems),
    steps: await readSteps(lookups, f['workflow_steps'], problems),
    taxonomies: await readTaxonomies(lookups, f['taxonomy_groups'], problems),
    publishing: readChoices(f['publishing_states'], p('publishing_states'), publishingStates, problems),
    order: null,
  };
  const order = root['order'];
  if (order !== undefined && order !== null) {
    const by = isRecord(order) ? order['by'] : undefined;
    const direction = isRecord(order) ? (order['direction'] ?? 'asc') : undefined;
    if (by !== 'last_modified' && by !== 'name' && by !== 'due_date')
      problems.add('order.by', 'must be last_modified, name or due_date');
    else if (direction !== 'asc' && direction !== 'desc') problems.add('order.direction', 'must be asc or desc');
    else filter.order = { by, direction };
  }
  problems.throwIfAny();
  return filter;
}
