import type { ModelRecord } from '../../domain/model-record.ts';
import { isUuid } from '../../domain/uuid.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { isAbsent, readName, resolveModelReferences } from '../collections/model-fields.ts';
import { systemStepIds } from '../system-ids.ts';
import { at, checkCodename, generateCodename, isRecord, type Problems } from '../shared/index.ts';

/** A user-defined workflow step, in wire form (reference §2.10). */
export interface WorkflowStepBody {
  id: string;
  name: string;
  codename: string;
  color: WorkflowColor;
  transitions_to: { step: { id: string } }[];
  role_ids: string[];
}

/**
 * Stored body of a workflow, in wire form minus id and codename. The system steps (Published,
 * Scheduled, Archived) have the same ids in every workflow; only their role lists are stored.
 */
export interface WorkflowBody {
  name: string;
  scopes: { content_types: { id: string }[]; collections: { id: string }[] }[];
  steps: WorkflowStepBody[];
  published_step: { unpublish_role_ids: string[]; create_new_version_role_ids: string[] };
  archived_step: { role_ids: string[] };
}

export type WorkflowRecord = ModelRecord<WorkflowBody>;

export const workflowColors = [
  'gray',
  'red',
  'rose',
  'light-purple',
  'dark-purple',
  'dark-blue',
  'light-blue',
  'sky-blue',
  'mint-green',
  'persian-green',
  'dark-green',
  'light-green',
  'yellow',
  'pink',
  'orange',
  'brown',
] as const;
export type WorkflowColor = (typeof workflowColors)[number];

const systemCodenames: Record<string, string> = {
  published: systemStepIds.published,
  archived: systemStepIds.archived,
};
const reservedCodenames = new Set(['published', 'scheduled', 'archived']);
export const workflowNameMax = 200;

function readRoleIds(value: unknown, path: string, problems: Problems): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && isUuid(v))) {
    problems.add(path, 'must be an array of role ids');
    return [];
  }
  return [...new Set(value.map((v: string) => v.toLowerCase()))];
}

/**
 * Reads the POST/PUT body of a workflow. Steps whose `id` names a step of `existingSteps` keep it
 * (PUT matches steps by id); other steps get new ids, and transitions naming the id a step was
 * sent with follow it. Transitions may point to the body's steps and to Published and Archived,
 * by id or codename; every step must lead to Published. Scope content types may be referenced by
 * an external id before the type exists; collections must exist.
 */
export async function readWorkflowBody(
  tx: UnitOfWork,
  options: {
    projectId: string;
    body: unknown;
    existingSteps: readonly WorkflowStepBody[];
    newId: () => string;
    problems: Problems;
  },
): Promise<{ name: string; codename: string | undefined; body: WorkflowBody } | null> {
  const { problems } = options;
  if (!isRecord(options.body)) {
    problems.add(undefined, 'The body must be a JSON object.');
    return null;
  }
  const body = options.body;
  const name = readName(body['name'], 'name', problems, workflowNameMax);
  const codename = isAbsent(body['codename'])
    ? undefined
    : checkCodename(body['codename'], 'codename', problems)
      ? body['codename']
      : null;
  const scopes = await readScopes(tx, options.projectId, body['scopes'], problems);
  const steps = readSteps(body['steps'], options, problems);
  const published = isRecord(body['published_step']) ? body['published_step'] : null;
  if (!published) problems.add('published_step', "The 'published_step' property is missing. Provide an object.");
  const archived = isRecord(body['archived_step']) ? body['archived_step'] : null;
  if (!archived) problems.add('archived_step', "The 'archived_step' property is missing. Provide an object.");
  const result: WorkflowBody = {
    name: name ?? '',
    scopes,
    steps,
    published_step: {
      unpublish_role_ids: readRoleIds(published?.['unpublish_role_ids'], 'published_step.unpublish_role_ids', problems),
      create_new_version_role_ids: readRoleIds(
        published?.['create_new_version_role_ids'],
        'published_step.create_new_version_role_ids',
        problems,
      ),
    },
    archived_step: { role_ids: readRoleIds(archived?.['role_ids'], 'archived_step.role_ids', problems) },
  };
  if (name === null || codename === null || !problems.isEmpty) return null;
  return { name, codename, body: result };
}

async function readScopes(
  tx: UnitOfWork,
  projectId: string,
  value: unknown,
  problems: Problems,
): Promise<WorkflowBody['scopes']> {
  if (!Array.isArray(value)) {
    problems.add('scopes', "The 'scopes' property is missing. Provide at least an empty array.");
    return [];
  }
  const scopes: WorkflowBody['scopes'] = [];
  for (const [i, scope] of value.entries()) {
    const path = at('scopes', i);
    if (!isRecord(scope)) {
      problems.add(path, 'A scope must be an object with content_types and collections.');
      continue;
    }
    const read = async (field: 'content_types' | 'collections') =>
      scope[field] === undefined || scope[field] === null
        ? []
        : (
            await resolveModelReferences(tx, {
              projectId,
              kind: field === 'content_types' ? 'content_type' : 'collection',
              noun: field === 'content_types' ? 'content type' : 'collection',
              value: scope[field],
              path: at(path, field),
              problems,
              isForwardAllowed: field === 'content_types',
            })
          ).map((id) => ({ id }));
    scopes.push({ content_types: await read('content_types'), collections: await read('collections') });
  }
  return scopes;
}

function readSteps(
  value: unknown,
  options: { existingSteps: readonly WorkflowStepBody[]; newId: () => string },
  problems: Problems,
): WorkflowStepBody[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.add('steps', 'Provide at least one workflow step.');
    return [];
  }
  const existing = new Set(options.existingSteps.map((s) => s.id));
  // A step sent without an id keeps the id of the current step with its codename, as tools that
  // rewrite a workflow by codenames (data-ops restoring scopes) expect: its variants stay in it.
  const byCodename = new Map(options.existingSteps.map((s) => [s.codename, s.id]));
  const sentIds = new Map<string, string>();
  const steps: (WorkflowStepBody & { raw: Record<string, unknown>; path: string })[] = [];
  for (const [i, raw] of value.entries()) {
    const path = at('steps', i);
    if (!isRecord(raw)) {
      problems.add(path, 'A workflow step must be an object.');
      continue;
    }
    const sent = typeof raw['id'] === 'string' ? raw['id'].toLowerCase() : null;
    const kept = sent === null && typeof raw['codename'] === 'string' ? byCodename.get(raw['codename']) : undefined;
    const id =
      sent !== null && existing.has(sent) && !sentIds.has(sent)
        ? sent
        : kept !== undefined && !sentIds.has(kept)
          ? kept
          : options.newId();
    if (sent !== null && !sentIds.has(sent)) sentIds.set(sent, id);
    if (kept === id) sentIds.set(id, id);
    const name = readName(raw['name'], at(path, 'name'), problems, workflowNameMax);
    const codename = isAbsent(raw['codename'])
      ? ''
      : checkCodename(raw['codename'], at(path, 'codename'), problems)
        ? raw['codename']
        : '';
    const color = raw['color'];
    if (!workflowColors.includes(color as WorkflowColor))
      problems.add(at(path, 'color'), `must be one of ${workflowColors.join(', ')}`);
    const roleIds = readRoleIds(raw['role_ids'], at(path, 'role_ids'), problems);
    steps.push({
      id,
      name: name ?? '',
      codename,
      color: color as WorkflowColor,
      transitions_to: [],
      role_ids: roleIds,
      raw,
      path,
    });
  }
  const taken = new Set<string>();
  for (const step of steps) {
    if (step.codename === '')
      step.codename = generateCodename({
        name: step.name || 'step',
        id: step.id,
        isTaken: (c) => reservedCodenames.has(c) || steps.some((s) => s.codename === c) || taken.has(c),
      });
    if (taken.has(step.codename) || reservedCodenames.has(step.codename))
      problems.add(at(step.path, 'codename'), `The codename '${step.codename}' is already used by another step.`);
    taken.add(step.codename);
  }
  const resolve = (ref: Record<string, unknown>): string | null => {
    if (typeof ref['id'] === 'string' && ref['codename'] === undefined) {
      const id = ref['id'].toLowerCase();
      if (id === systemStepIds.published || id === systemStepIds.archived) return id;
      return sentIds.get(id) ?? (steps.some((s) => s.id === id) ? id : null);
    }
    if (typeof ref['codename'] === 'string' && ref['id'] === undefined)
      return systemCodenames[ref['codename']] ?? steps.find((s) => s.codename === ref['codename'])?.id ?? null;
    return null;
  };
  for (const step of steps) {
    const transitions = step.raw['transitions_to'];
    if (!Array.isArray(transitions)) {
      problems.add(at(step.path, 'transitions_to'), 'must be an array of {"step": {"id" or "codename"}}');
      continue;
    }
    for (const [j, t] of transitions.entries()) {
      const target = isRecord(t) && isRecord(t['step']) ? resolve(t['step']) : null;
      if (target === null)
        problems.add(at(at(step.path, 'transitions_to'), j), 'The referenced workflow step was not found.');
      else if (!step.transitions_to.some((x) => x.step.id === target))
        step.transitions_to.push({ step: { id: target } });
    }
  }
  if (problems.isEmpty) checkLeadsToPublished(steps, problems);
  return steps.map(({ raw: _raw, path: _path, ...step }) => step);
}

/** Every step must eventually transition to Published. */
function checkLeadsToPublished(steps: readonly (WorkflowStepBody & { path: string })[], problems: Problems): void {
  const reaching = new Set<string>([systemStepIds.published]);
  let isGrowing = true;
  while (isGrowing) {
    isGrowing = false;
    for (const s of steps)
      if (!reaching.has(s.id) && s.transitions_to.some((t) => reaching.has(t.step.id))) {
        reaching.add(s.id);
        isGrowing = true;
      }
  }
  for (const s of steps)
    if (!reaching.has(s.id))
      problems.add(at(s.path, 'transitions_to'), `The step '${s.codename}' does not lead to the Published step.`);
}
