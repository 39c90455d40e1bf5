import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../ui/error-text.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { ChangeWorkflowDialog } from './change-workflow-dialog.tsx';
import { ScheduleDialog } from './schedule-dialog.tsx';
import {
  runVariantAction,
  useIsPublished,
  useItem,
  useLiveItem,
  usePersonRoles,
  useUsers,
  useVariant,
  useWorkflows,
  userLabel,
} from './workflow-api.ts';
import { allowedActions, allowedTargets, stepName, type ActionName, type Person } from './workflow-rules.ts';
import { formatInZone } from './zoned-time.ts';
import '../styles/workflow.css';

export interface WorkflowPanelProps {
  readonly projectId: string;
  readonly itemId: string;
  /** The language's id or codename. */
  readonly languageId: string;
  /** False for a person who may only read (a Reviewer): the state shows, no action does. */
  readonly canChange: boolean;
}

type Dialog =
  | null
  | 'change-workflow'
  | 'schedule-publish'
  | 'schedule-unpublish'
  | { readonly confirm: ActionName; readonly text: string; readonly label: string };

const confirmations: Partial<Record<ActionName, { text: string; label: string }>> = {
  publish: { text: 'Publish this item now? It becomes available through the Delivery API.', label: 'Publish' },
  unpublish: { text: 'Unpublish this item? It stops being available through the Delivery API.', label: 'Unpublish' },
  'cancel-scheduled-publish': { text: 'Cancel the scheduled publishing?', label: 'Cancel scheduling' },
  'cancel-scheduled-unpublish': { text: 'Cancel the scheduled unpublishing?', label: 'Cancel scheduling' },
};

const noOne: Person = { roleIds: new Set(), isProjectManager: false };

/**
 * The item header's workflow: the variant's workflow and step, its schedule, contributors and due
 * date, and the actions its state allows for the person ("Change workflow", "Publish", "Schedule
 * publish", "Unpublish", "Schedule unpublish", "Create new version", "Cancel scheduling"). Each
 * action is one Management API call; its refusal is shown in the API's words.
 */
export function WorkflowPanel({ projectId, itemId, languageId, canChange }: WorkflowPanelProps) {
  const queryClient = useQueryClient();
  const variant = useVariant(projectId, itemId, languageId);
  const isPublished = useIsPublished(projectId, itemId, languageId);
  const workflows = useWorkflows(projectId);
  const item = useItem(projectId, itemId);
  const person = usePersonRoles(projectId);
  const users = useUsers(projectId);
  useLiveItem(itemId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  if (variant.isError)
    return (
      <p role="alert" className="error">
        {errorText(variant.error)}
      </p>
    );
  if (!variant.data || !workflows.data) return <p role="status">Loading workflow…</p>;

  const v = variant.data;
  const workflow = workflows.data.find((w) => w.id === v.workflow.workflow_identifier.id);
  const stepId = v.workflow.step_identifier.id;
  const who: Person = person.data ?? noOne;
  const scope = { typeId: item.data?.type.id ?? '', collectionId: item.data?.collection.id ?? '' };
  const targets = allowedTargets(workflows.data, v, who, scope);
  const actions = canChange
    ? allowedActions(workflow, v, who, { isPublished: isPublished.data === true, hasTargets: targets.length > 0 })
    : new Set<ActionName>();
  const target = { projectId, itemId, languageId };

  const run = async (action: string, body?: unknown) => {
    setError(null);
    setIsBusy(true);
    try {
      await runVariantAction(queryClient, target, action, body);
    } catch (err) {
      setError(errorText(err));
      throw err;
    } finally {
      setIsBusy(false);
    }
  };
  const ask = (action: ActionName) => {
    const c = confirmations[action];
    if (c) setDialog({ confirm: action, ...c });
    else void run(action).catch(() => {});
  };
  const button = (action: ActionName, label: string, onClick: () => void) =>
    actions.has(action) && (
      <button type="button" className="button" disabled={isBusy} onClick={onClick}>
        {label}
      </button>
    );
  const userById = new Map((users.data ?? []).map((u) => [u.id, u]));

  return (
    <section className="workflow-panel" aria-label="Workflow">
      <dl className="workflow-facts">
        <div>
          <dt>Workflow</dt>
          <dd>{workflow?.name ?? v.workflow.workflow_identifier.id}</dd>
        </div>
        <div>
          <dt>Step</dt>
          <dd>
            <span className="step-badge" data-color={workflow?.steps.find((s) => s.id === stepId)?.color ?? 'gray'}>
              {stepName(workflow, stepId)}
            </span>
          </dd>
        </div>
        {v.schedule.publish_time && (
          <div>
            <dt>Scheduled to publish</dt>
            <dd>{formatInZone(v.schedule.publish_time, v.schedule.publish_display_timezone)}</dd>
          </div>
        )}
        {v.schedule.unpublish_time && (
          <div>
            <dt>Scheduled to unpublish</dt>
            <dd>{formatInZone(v.schedule.unpublish_time, v.schedule.unpublish_display_timezone)}</dd>
          </div>
        )}
        <div>
          <dt>Contributors</dt>
          <dd>
            {v.contributors.length === 0
              ? 'None'
              : v.contributors.map((c) => userLabel(userById.get(c.id), c.id)).join(', ')}
          </dd>
        </div>
        <div>
          <dt>Due date</dt>
          <dd>{v.due_date.value ? formatInZone(v.due_date.value, null) : 'None'}</dd>
        </div>
      </dl>
      <div className="workflow-actions">
        {button('change-workflow', 'Change workflow', () => setDialog('change-workflow'))}
        {button('publish', 'Publish', () => ask('publish'))}
        {button('schedule-publish', 'Schedule publish', () => setDialog('schedule-publish'))}
        {button('new-version', 'Create new version', () => ask('new-version'))}
        {button('unpublish', 'Unpublish', () => ask('unpublish'))}
        {button('schedule-unpublish', 'Schedule unpublish', () => setDialog('schedule-unpublish'))}
        {button('cancel-scheduled-publish', 'Cancel scheduling', () => ask('cancel-scheduled-publish'))}
        {button('cancel-scheduled-unpublish', 'Cancel scheduled unpublish', () => ask('cancel-scheduled-unpublish'))}
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {dialog === 'change-workflow' && (
        <ChangeWorkflowDialog
          isOpen
          onClose={() => setDialog(null)}
          targets={targets}
          variant={v}
          users={users.data ?? null}
          onSubmit={(body) => runVariantAction(queryClient, target, 'change-workflow', body)}
        />
      )}
      {(dialog === 'schedule-publish' || dialog === 'schedule-unpublish') && (
        <ScheduleDialog
          isOpen
          kind={dialog === 'schedule-publish' ? 'publish' : 'unpublish'}
          onClose={() => setDialog(null)}
          onSubmit={(body) =>
            runVariantAction(
              queryClient,
              target,
              dialog === 'schedule-publish' ? 'publish' : 'unpublish-and-archive',
              body,
            )
          }
        />
      )}
      {dialog !== null && typeof dialog === 'object' && (
        <ModalDialog isOpen onClose={() => setDialog(null)} title={dialog.label}>
          <p>{dialog.text}</p>
          <div className="modal-actions">
            <button
              type="button"
              className="button button-primary"
              data-autofocus
              onClick={() => {
                const action = dialog.confirm;
                setDialog(null);
                void run(action).catch(() => {});
              }}
            >
              {dialog.label}
            </button>
            <button type="button" className="button" onClick={() => setDialog(null)}>
              Cancel
            </button>
          </div>
        </ModalDialog>
      )}
    </section>
  );
}
