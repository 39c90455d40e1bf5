import type { ModelKind } from '../domain/model-record.ts';
import type { UnitOfWork } from '../ports/store.ts';
import { resolveModelReference, resolveModelReferences } from '../model/collections/model-fields.ts';
import { systemStepIds } from '../model/defaults.ts';
import type { WorkflowBody } from '../model/workflows/workflow-body.ts';
import { at, isRecord, readReference, type Problems } from '../model/shared/index.ts';
import {
  deliverySlots,
  isOneOf,
  legacyListRules,
  legacyTriggerLists,
  webhookActions,
  webhookEventModes,
  webhookFilters,
  webhookObjectTypes,
  type WebhookObjectType,
} from './webhook-vocabulary.ts';

/*
 * The trigger objects of both webhook formats, checked and stored with every reference resolved
 * to `{ id }` (the worker matches events by id): `delivery_triggers` of `/webhooks-vnext`
 * (management-api.md §2.11) and the legacy `triggers` of `/webhooks`.
 */

interface Context {
  readonly tx: UnitOfWork;
  readonly projectId: string;
  readonly problems: Problems;
}

/** `'a' or 'b'`: the words of a vocabulary in a message. */
const quotedList = (words: readonly string[]) => words.map((w) => `'${w}'`).join(' or ');

/** `true`, `false` and their strings (the docs' curl sample sends `"enabled": "true"`). */
export function readBoolean(value: unknown): boolean | null {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

async function readTransitions(ctx: Context, value: unknown, path: string) {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    ctx.problems.add(path, 'must be an array of {workflow_identifier, step_identifier}');
    return [];
  }
  const result: { workflow_identifier: { id: string }; step_identifier: { id: string } }[] = [];
  for (const [i, entry] of value.entries()) {
    const p = at(path, i);
    if (!isRecord(entry)) {
      ctx.problems.add(p, 'must be an object with workflow_identifier and step_identifier');
      continue;
    }
    const workflowId = await resolveModelReference(ctx.tx, {
      projectId: ctx.projectId,
      kind: 'workflow',
      noun: 'workflow',
      value: entry['workflow_identifier'],
      path: at(p, 'workflow_identifier'),
      problems: ctx.problems,
    });
    const step = readReference(entry['step_identifier'], at(p, 'step_identifier'), ctx.problems);
    if (workflowId === null || step === null) continue;
    const workflow = await ctx.tx.model.find<WorkflowBody>(ctx.projectId, 'workflow', { id: workflowId });
    const steps = [
      ...(workflow?.body.steps ?? []).map((s) => ({ id: s.id, codename: s.codename })),
      { id: systemStepIds.published, codename: 'published' },
      { id: systemStepIds.scheduled, codename: 'scheduled' },
      { id: systemStepIds.archived, codename: 'archived' },
    ];
    const found = steps.find((s) =>
      'id' in step ? s.id === step.id : 'codename' in step && s.codename === step.codename,
    );
    if (!found) {
      ctx.problems.add(at(p, 'step_identifier'), 'The workflow has no such step.');
      continue;
    }
    result.push({ workflow_identifier: { id: workflowId }, step_identifier: { id: found.id } });
  }
  return result;
}

async function readSection(ctx: Context, name: WebhookObjectType, value: unknown, path: string) {
  if (!isRecord(value)) {
    ctx.problems.add(path, 'must be an object with enabled, actions and filters');
    return null;
  }
  const enabled = readBoolean(value['enabled']);
  if (enabled === null) ctx.problems.add(at(path, 'enabled'), 'must be true or false');
  const actions: Record<string, unknown>[] = [];
  const rawActions = value['actions'] ?? [];
  if (!Array.isArray(rawActions)) ctx.problems.add(at(path, 'actions'), 'must be an array of {action}');
  else
    for (const [i, entry] of rawActions.entries()) {
      const p = at(at(path, 'actions'), i);
      const action = isRecord(entry) ? entry['action'] : undefined;
      const allowed: readonly string[] = webhookActions[name];
      if (!isOneOf(allowed, action)) {
        ctx.problems.add(p, `must be {"action": …} with one of ${allowed.join(', ')}`);
        continue;
      }
      if (name === 'content_item') {
        const transitions = await readTransitions(
          ctx,
          (entry as Record<string, unknown>)['transition_to'],
          at(p, 'transition_to'),
        );
        // As recorded (SDK-NET Webhook.json): `transition_to` is null on the other actions.
        actions.push({ action, transition_to: action === 'workflow_step_changed' ? transitions : null });
      } else actions.push({ action });
    }
  const filters: Record<string, { id: string }[]> = {};
  const sectionFilters: Readonly<Record<string, ModelKind>> = webhookFilters[name];
  const rawFilters = value['filters'] ?? {};
  if (!isRecord(rawFilters)) ctx.problems.add(at(path, 'filters'), 'must be an object');
  else {
    for (const key of Object.keys(rawFilters))
      if (!Object.hasOwn(sectionFilters, key))
        ctx.problems.add(at(at(path, 'filters'), key), 'is not a filter of this section');
    for (const [key, kind] of Object.entries(sectionFilters)) {
      const raw = rawFilters[key];
      const ids =
        raw === undefined || raw === null
          ? []
          : await resolveModelReferences(ctx.tx, {
              projectId: ctx.projectId,
              kind,
              noun: kind.replace('_', ' '),
              value: raw,
              path: at(at(path, 'filters'), key),
              problems: ctx.problems,
            });
      filters[key] = ids.map((id) => ({ id }));
    }
  }
  return { enabled: enabled ?? false, actions, ...(name === 'asset' ? {} : { filters }) };
}

/** Checks `delivery_triggers` of a `/webhooks-vnext` body; returns the stored form (null when refused). */
export async function readDeliveryTriggers(
  ctx: Context,
  value: unknown,
  path = 'delivery_triggers',
): Promise<Record<string, unknown> | null> {
  if (!isRecord(value)) {
    ctx.problems.add(path, 'is required: an object with slot, events and the object types that trigger the webhook');
    return null;
  }
  const slot = value['slot'];
  if (!isOneOf(deliverySlots, slot)) ctx.problems.add(at(path, 'slot'), `must be ${quotedList(deliverySlots)}`);
  const events = value['events'];
  if (!isOneOf(webhookEventModes, events))
    ctx.problems.add(at(path, 'events'), `must be ${quotedList(webhookEventModes)}`);
  for (const key of Object.keys(value))
    if (!isOneOf(['slot', 'events', ...webhookObjectTypes], key))
      ctx.problems.add(at(path, key), 'is not a trigger of a webhook');
  const stored: Record<string, unknown> = { slot, events };
  let hasTrigger = events === 'all';
  for (const name of webhookObjectTypes) {
    // Every section is stored and shown, as Kontent.ai answers (SDK-NET Webhook.json); one left
    // out is disabled with nothing listed.
    const raw = value[name] ?? { enabled: false, actions: [] };
    const section = await readSection(ctx, name, raw, at(path, name));
    if (section === null) continue;
    stored[name] = section;
    if (section.enabled && section.actions.length > 0) hasTrigger = true;
  }
  if (events === 'specific' && !hasTrigger)
    ctx.problems.add(path, 'Select at least one trigger: an enabled object type with at least one action.');
  return stored;
}

/** Checks the legacy `triggers` of a `/webhooks` body; returns the stored form (every list present). */
export async function readLegacyTriggers(
  ctx: Context,
  value: unknown,
  path = 'triggers',
): Promise<Record<string, unknown> | null> {
  if (!isRecord(value)) {
    ctx.problems.add(path, 'is required: an object with the trigger lists');
    return null;
  }
  for (const key of Object.keys(value))
    if (!isOneOf(legacyTriggerLists, key)) ctx.problems.add(at(path, key), 'is not a trigger list of a legacy webhook');
  const stored: Record<string, unknown[]> = {};
  let count = 0;
  for (const name of legacyTriggerLists) {
    const rule: { types: readonly string[]; operations: readonly string[] } = legacyListRules[name];
    const raw = value[name] ?? [];
    stored[name] = [];
    if (!Array.isArray(raw)) {
      ctx.problems.add(at(path, name), 'must be an array');
      continue;
    }
    for (const [i, entry] of raw.entries()) {
      const p = at(at(path, name), i);
      if (!isRecord(entry) || !isOneOf(rule.types, entry['type'])) {
        ctx.problems.add(p, `must be an object whose type is one of ${rule.types.join(', ')}`);
        continue;
      }
      // The workflow list names the steps moved to, not operations.
      if (name === 'workflow_step_changes') {
        const steps = await readLegacySteps(ctx, entry['transitions_to'], at(p, 'transitions_to'));
        stored[name].push({ type: entry['type'], transitions_to: steps });
        count += 1;
        continue;
      }
      const ops = entry['operations'];
      if (!Array.isArray(ops) || ops.length === 0 || ops.some((o) => !isOneOf(rule.operations, o))) {
        ctx.problems.add(at(p, 'operations'), `must be a non-empty array of ${rule.operations.join(', ')}`);
        continue;
      }
      stored[name].push({ type: entry['type'], operations: [...new Set(ops as string[])] });
      count += 1;
    }
  }
  if (count === 0) ctx.problems.add(path, 'Select at least one trigger.');
  return stored;
}

/** Step references of a legacy workflow trigger: ids of steps of any workflow of the project. */
async function readLegacySteps(ctx: Context, value: unknown, path: string): Promise<{ id: string }[]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    ctx.problems.add(path, 'must be an array of {id}');
    return [];
  }
  const workflows = await ctx.tx.model.list<WorkflowBody>(ctx.projectId, 'workflow');
  const known = new Set([...workflows.flatMap((w) => w.body.steps.map((s) => s.id)), ...Object.values(systemStepIds)]);
  const result: { id: string }[] = [];
  for (const [i, entry] of value.entries()) {
    const ref = readReference(entry, at(path, i), ctx.problems);
    if (ref === null) continue;
    if (!('id' in ref) || !known.has(ref.id))
      ctx.problems.add(at(path, i), 'must name a workflow step of the project by id');
    else result.push({ id: ref.id });
  }
  return result;
}
