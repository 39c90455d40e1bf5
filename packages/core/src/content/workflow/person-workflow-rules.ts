import { LecternError } from '@lectern/errors';
import type { Actor } from '../../domain/actor.ts';
import { systemStepIds } from '../../model/defaults.ts';
import { roleId } from '../../model/settings/roles.ts';
import type { WorkflowRecord } from '../../model/workflows/workflow-body.ts';
import { roleIdsOfUser } from '../../operations/permissions.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { VariantRecord } from '../variants/variant-record.ts';

/*
 * What a signed-in person's roles allow in a workflow, as Kontent.ai's web app holds its users to
 * it (the Management API holds a key's user to the permissions alone, as Kontent.ai does): a
 * step's `role_ids` are the roles that may work with a variant in it (empty: every role), and the
 * Project manager always may; from a regular step a variant moves only along the step's
 * `transitions_to` (Archived included; Published through "Publish"); from Archived, to any regular
 * step; unpublishing and a new version need the published step's role lists. Moving to another
 * workflow that covers the item is allowed from any step a person may work with. The editor's
 * workflow panel offers the same choices (apps/editor/src/workflow/workflow-rules.ts).
 */

/** The action a person asks for. */
export type PersonWorkflowAction =
  | { readonly kind: 'move'; readonly workflowId: string; readonly stepId: string }
  | { readonly kind: 'publish' }
  | { readonly kind: 'unpublish' }
  | { readonly kind: 'new_version' };

interface Roles {
  readonly ids: ReadonlySet<string>;
  readonly isProjectManager: boolean;
}

async function rolesOf(tx: UnitOfWork, projectId: string, userId: string): Promise<Roles> {
  const ids = (await roleIdsOfUser(tx, { projectId, userId })) ?? new Set<string>();
  return { ids, isProjectManager: ids.has(roleId(projectId, 'project-manager')) };
}

function mayWork(roles: Roles, roleIds: readonly string[]): boolean {
  return roles.isProjectManager || roleIds.length === 0 || roleIds.some((id) => roles.ids.has(id));
}

function refuse(message: string): never {
  throw new LecternError('PERMISSION_DENIED', { message });
}

/** Throws PERMISSION_DENIED (403, error_code 16) when a person's roles do not allow `action`; other actors pass. */
export async function assertPersonWorkflowAction(
  tx: UnitOfWork,
  input: {
    actor: Actor;
    variant: Pick<VariantRecord, 'projectId' | 'workflowId' | 'stepId'>;
    workflows: readonly WorkflowRecord[];
    action: PersonWorkflowAction;
  },
): Promise<void> {
  const { actor, variant, action } = input;
  if (actor.type !== 'person') return;
  const roles = await rolesOf(tx, variant.projectId, actor.userId);
  if (roles.isProjectManager) return;
  const workflow = input.workflows.find((w) => w.id === variant.workflowId);
  if (!workflow) return;
  const published = workflow.body.published_step;
  if (action.kind === 'unpublish' || action.kind === 'new_version') {
    const allowed = action.kind === 'unpublish' ? published.unpublish_role_ids : published.create_new_version_role_ids;
    if (!mayWork(roles, allowed))
      refuse(`Your role cannot ${action.kind === 'unpublish' ? 'unpublish' : 'create a new version of'} this item.`);
    return;
  }
  if (variant.stepId === systemStepIds.archived) {
    if (!mayWork(roles, workflow.body.archived_step.role_ids)) refuse('Your role cannot work with archived items.');
    return;
  }
  const step = workflow.body.steps.find((s) => s.id === variant.stepId);
  if (!step) return;
  if (!mayWork(roles, step.role_ids)) refuse(`Your role cannot work with items in the step '${step.name}'.`);
  const target = action.kind === 'publish' ? systemStepIds.published : action.stepId;
  if (action.kind === 'move' && action.workflowId !== workflow.id) return;
  if (!step.transitions_to.some((t) => t.step.id === target))
    refuse(
      action.kind === 'publish'
        ? `Items in the step '${step.name}' cannot be published: the workflow has no transition to Published from it.`
        : `The workflow does not allow moving items from the step '${step.name}' to that step.`,
    );
}
