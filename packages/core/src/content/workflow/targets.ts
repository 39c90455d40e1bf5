import { LecternError } from '@lectern/errors';
import { isUuid } from '../../domain/uuid.ts';
import { systemStepIds } from '../../model/defaults.ts';
import { at, describeReference, isRecord, readReference, type Problems } from '../../model/shared/index.ts';
import type { ContentLookups } from '../variants/lookups.ts';
import type { VariantRecord } from '../variants/variant-record.ts';
import { readDateTime } from '../variants/value-rules.ts';
import { isInScope } from './workflow-state.ts';

/**
 * A `{workflow_identifier, step_identifier}` target (reference §2.4 change-workflow): the workflow
 * by id or codename, covering the item; the step one of its own steps or Archived. Published and
 * Scheduled are reached only through `/publish` (error_code 215).
 */
export async function readWorkflowTarget(options: {
  lookups: ContentLookups;
  raw: unknown;
  path: string;
  problems: Problems;
  item: { typeId: string; collectionId: string };
  /**
   * Whether the workflow's scopes must cover the item (change-workflow). A variant upsert names
   * its step explicitly and is accepted in any workflow, as Kontent.ai does: scopes only decide
   * where new items start (data-ops restores variants before the scopes; exports hold variants in
   * workflows that no longer cover them).
   */
  isScopeChecked?: boolean;
}): Promise<{ workflowId: string; stepId: string } | null> {
  const { raw, path, problems } = options;
  if (!isRecord(raw)) {
    problems.add(path, 'must be an object {"workflow_identifier": reference, "step_identifier": reference}');
    return null;
  }
  const wfRef = readReference(raw['workflow_identifier'], at(path, 'workflow_identifier'), problems);
  const stepRef = readReference(raw['step_identifier'], at(path, 'step_identifier'), problems);
  if (!wfRef || !stepRef) return null;
  const workflow = (await options.lookups.workflows()).find(
    (w) => ('id' in wfRef && w.id === wfRef.id) || ('codename' in wfRef && w.codename === wfRef.codename),
  );
  if (!workflow) {
    problems.add(at(path, 'workflow_identifier'), `The workflow with ${describeReference(wfRef)} was not found.`);
    return null;
  }
  const isStep = (id: string, codename: string) =>
    ('id' in stepRef && stepRef.id === id) || ('codename' in stepRef && stepRef.codename === codename);
  if (isStep(systemStepIds.published, 'published')) throw new LecternError('WORKFLOW_STEP_NOT_ALLOWED');
  if (isStep(systemStepIds.scheduled, 'scheduled'))
    throw new LecternError('WORKFLOW_STEP_NOT_ALLOWED', {
      message:
        "Cannot change workflow step to Scheduled. To schedule publishing, use the '/publish' endpoint with 'scheduled_to'.",
    });
  const step = isStep(systemStepIds.archived, 'archived')
    ? systemStepIds.archived
    : workflow.body.steps.find((s) => isStep(s.id, s.codename))?.id;
  if (!step) {
    problems.add(
      at(path, 'step_identifier'),
      `The step with ${describeReference(stepRef)} is not a step of workflow '${workflow.codename}'.`,
    );
    return null;
  }
  if (options.isScopeChecked !== false && !isInScope(workflow, options.item)) {
    problems.add(
      at(path, 'workflow_identifier'),
      `The workflow '${workflow.codename}' does not cover this item's content type and collection.`,
    );
    return null;
  }
  return { workflowId: workflow.id, stepId: step };
}

type Meta = Partial<Pick<VariantRecord, 'dueDate' | 'contributors' | 'note'>>;

/** `due_date {value}`, `contributors [{id} | {email}]` and `note` of upsert and change-workflow bodies. */
export async function readVariantMeta(
  lookups: ContentLookups,
  body: Record<string, unknown>,
  problems: Problems,
): Promise<Meta> {
  const meta: { dueDate?: string | null; contributors?: { id: string }[]; note?: string | null } = {};
  const due = body['due_date'];
  if (due !== undefined) {
    if (due === null) meta.dueDate = null;
    else if (!isRecord(due)) problems.add('due_date', 'must be an object {"value": date-time or null}');
    else meta.dueDate = readDateTime(due['value'], 'due_date.value', problems);
  }
  const contributors = body['contributors'];
  if (contributors !== undefined && contributors !== null) {
    if (!Array.isArray(contributors)) problems.add('contributors', 'must be an array of {"id"} or {"email"}');
    else {
      meta.contributors = [];
      for (const [i, c] of contributors.entries()) {
        const id = isRecord(c) && typeof c['id'] === 'string' && c['id'] !== '' ? c['id'] : null;
        const email = isRecord(c) && typeof c['email'] === 'string' ? c['email'] : null;
        const user = email === null ? null : await lookups.tx.users.findByEmail(email);
        const resolved = id ?? user?.id ?? null;
        if (resolved === null)
          problems.add(
            at('contributors', i),
            email ? `The user '${email}' was not found.` : 'must be {"id"} or {"email"}',
          );
        else if (!meta.contributors.some((x) => x.id === resolved))
          meta.contributors.push({ id: isUuid(resolved) ? resolved.toLowerCase() : resolved });
      }
    }
  }
  const note = body['note'];
  if (note !== undefined) {
    if (note !== null && typeof note !== 'string') problems.add('note', 'must be a string or null');
    else meta.note = note;
  }
  return meta;
}
