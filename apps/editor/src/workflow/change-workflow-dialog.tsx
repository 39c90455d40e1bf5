import { useState, type FormEvent } from 'react';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { errorText } from '../ui/error-text.ts';
import { userLabel, type UserJson } from './workflow-api.ts';
import type { StepTarget, VariantState } from './workflow-rules.ts';
import { localZone, zonedToInstant } from './zoned-time.ts';

export interface ChangeWorkflowBody {
  readonly workflow_identifier: { readonly id: string };
  readonly step_identifier: { readonly id: string };
  readonly due_date: { readonly value: string | null };
  readonly contributors?: readonly { readonly id: string }[];
  readonly note: string | null;
}

export interface ChangeWorkflowDialogProps {
  readonly isOpen: boolean;
  readonly onClose: () => void;
  readonly targets: readonly StepTarget[];
  readonly variant: VariantState;
  /** The environment's users, or null when the server lists none (contributors stay as they are). */
  readonly users: readonly UserJson[] | null;
  readonly onSubmit: (body: ChangeWorkflowBody) => Promise<void>;
}

function dateAndTime(iso: string | null): { date: string; time: string } {
  if (!iso) return { date: '', time: '' };
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}`,
  };
}

/**
 * "Change workflow": the steps the workflow allows from here (and the steps of other workflows
 * that cover the item), contributors, due date and a note, sent as one PUT …/change-workflow.
 */
export function ChangeWorkflowDialog({
  isOpen,
  onClose,
  targets,
  variant,
  users,
  onSubmit,
}: ChangeWorkflowDialogProps) {
  const [choice, setChoice] = useState(0);
  const [contributors, setContributors] = useState<string[]>(variant.contributors.map((c) => c.id));
  const initial = dateAndTime(variant.due_date.value);
  const [dueDate, setDueDate] = useState(initial.date);
  const [dueTime, setDueTime] = useState(initial.time || '17:00');
  const [note, setNote] = useState(variant.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const target = targets[choice];
    if (!target) return;
    setIsBusy(true);
    setError(null);
    try {
      await onSubmit({
        workflow_identifier: { id: target.workflowId },
        step_identifier: { id: target.stepId },
        due_date: { value: dueDate ? zonedToInstant(dueDate, dueTime || '00:00', localZone()) : null },
        ...(users ? { contributors: contributors.map((id) => ({ id })) } : {}),
        note: note.trim() === '' ? null : note,
      });
      onClose();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setIsBusy(false);
    }
  };

  const toggle = (id: string) =>
    setContributors((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));

  return (
    <ModalDialog isOpen={isOpen} onClose={onClose} title="Change workflow" className="workflow-dialog">
      <form onSubmit={(e) => void submit(e)} className="workflow-form">
        <fieldset>
          <legend>Workflow step</legend>
          {targets.map((t, i) => (
            <label key={`${t.workflowId}/${t.stepId}`} className="choice">
              <input type="radio" name="step" checked={choice === i} onChange={() => setChoice(i)} />
              {t.stepName}
              <span className="muted"> ({t.workflowName})</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Contributors</legend>
          {users ? (
            users.map((u) => (
              <label key={u.id} className="choice">
                <input type="checkbox" checked={contributors.includes(u.id)} onChange={() => toggle(u.id)} />
                {userLabel(u, u.id)}
              </label>
            ))
          ) : (
            <p className="muted">
              {variant.contributors.length === 0
                ? 'No contributors.'
                : variant.contributors.map((c) => c.id).join(', ')}{' '}
              (the list of the environment’s users is not available, so contributors stay as they are)
            </p>
          )}
        </fieldset>
        <fieldset>
          <legend>Due date</legend>
          <label>
            Date
            <input type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} />
          </label>
          <label>
            Time ({localZone()})
            <input type="time" value={dueTime} onChange={(e) => setDueTime(e.target.value)} />
          </label>
        </fieldset>
        <label>
          Note
          <textarea rows={3} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="submit" className="button button-primary" disabled={isBusy || targets.length === 0}>
            Change workflow
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
