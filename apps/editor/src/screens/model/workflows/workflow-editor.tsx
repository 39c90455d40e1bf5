import { useId, useState, type FormEvent } from 'react';
import { ApiError, mapi, request } from '../../../api/client.ts';
import type { Collection, ContentType } from '../../../api/project-model.ts';
import { Choices } from '../settings-kit/choices.tsx';
import type { Role } from '../settings-kit/model-data.ts';
import { FieldProblem, messagesFor, problemProps, useSave } from '../settings-kit/settings-kit.tsx';
import { StepEditor } from './step-editor.tsx';
import { bodyOf, newStep, toggled, type ScopeDraft, type StepDraft, type WorkflowDraft } from './workflow-draft.ts';

/**
 * The form of one workflow: name, codename, scopes (content types and collections), steps, and
 * who may unpublish, create new versions and archive. Saved as a whole: `POST /workflows` for a
 * new one, `PUT /workflows/{id}` for an existing one; the server's refusal is shown at the part
 * its path names (`steps[1]…` under that step, `scopes[0]…` under that scope).
 */
export function WorkflowEditor(props: {
  readonly projectId: string;
  readonly initial: WorkflowDraft;
  readonly types: readonly ContentType[];
  readonly collections: readonly Collection[];
  readonly roles: readonly Role[];
  readonly mayChange: boolean;
  readonly onDone: () => void;
}) {
  const id = useId();
  const save = useSave(props.projectId);
  const [draft, setDraft] = useState(props.initial);
  const disabled = !props.mayChange;
  const set = (patch: Partial<WorkflowDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setStep = (index: number, step: StepDraft) =>
    setDraft((d) => ({ ...d, steps: d.steps.map((s, i) => (i === index ? step : s)) }));
  const setScope = (index: number, scope: ScopeDraft) =>
    setDraft((d) => ({ ...d, scopes: d.scopes.map((s, i) => (i === index ? scope : s)) }));
  const moveStep = (index: number, by: -1 | 1) =>
    setDraft((d) => {
      const steps = [...d.steps];
      const [step] = steps.splice(index, 1);
      if (step) steps.splice(index + by, 0, step);
      return { ...d, steps };
    });
  const removeStep = (index: number) =>
    setDraft((d) => {
      const gone = d.steps[index]?.id;
      return {
        ...d,
        steps: d.steps
          .filter((_, i) => i !== index)
          .map((s) => ({ ...s, transitionsTo: s.transitionsTo.filter((t) => t !== gone) })),
      };
    });

  const problems = (field: string) => messagesFor(save.error, field);
  // Messages about the codename, a scope or a step are shown there; the rest under the name.
  const validation = save.error instanceof ApiError ? (save.error.body.validation_errors ?? []) : [];
  const isPlaced = (path: string | undefined) => path !== undefined && /^(codename|steps\[|scopes\[)/.test(path);
  const nameProblems =
    save.error instanceof ApiError
      ? [save.error.body.message, ...validation.filter((v) => !isPlaced(v.path)).map((v) => v.message)]
      : messagesFor(save.error, 'name', true);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(draft);
    const isDone = await save.run(() =>
      draft.id
        ? request(mapi(props.projectId, `/workflows/${draft.id}`), { method: 'PUT', body })
        : request(mapi(props.projectId, '/workflows'), { method: 'POST', body }),
    );
    if (isDone) props.onDone();
  };
  const roleOptions = props.roles.map((r) => ({ id: r.id, label: r.name }));

  return (
    <form
      className="workflow-editor"
      aria-label={draft.id ? `Workflow ${props.initial.name}` : 'New workflow'}
      onSubmit={(e) => void submit(e)}
    >
      <div className="step-fields">
        <div className="field">
          <label htmlFor={`${id}-name`}>Workflow name</label>
          <input
            id={`${id}-name`}
            value={draft.name}
            required
            disabled={disabled}
            onChange={(e) => set({ name: e.currentTarget.value })}
            {...problemProps(`${id}-name-problem`, nameProblems)}
          />
          <FieldProblem id={`${id}-name-problem`} messages={nameProblems} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-codename`}>Workflow codename</label>
          <input
            id={`${id}-codename`}
            className="codename"
            value={draft.codename}
            placeholder="from the name"
            disabled={disabled}
            onChange={(e) => set({ codename: e.currentTarget.value })}
            {...problemProps(`${id}-codename-problem`, problems('codename'))}
          />
          <FieldProblem id={`${id}-codename-problem`} messages={problems('codename')} />
        </div>
      </div>
      <h3>Scope</h3>
      <p className="hint">The content types and collections whose items use this workflow.</p>
      {draft.scopes.map((scope, i) => (
        <div key={i} className="workflow-scope" role="group" aria-label={`Scope ${i + 1}`}>
          <Choices
            legend="Content types"
            options={props.types.map((t) => ({ id: t.id, label: t.name }))}
            chosen={scope.contentTypes}
            disabled={disabled}
            problems={problems(`scopes[${i}].content_types`)}
            onChange={(t, isOn) => setScope(i, { ...scope, contentTypes: toggled(scope.contentTypes, t, isOn) })}
          />
          <Choices
            legend="Collections"
            options={props.collections.map((c) => ({ id: c.id, label: c.name }))}
            chosen={scope.collections}
            disabled={disabled}
            problems={problems(`scopes[${i}].collections`)}
            onChange={(c, isOn) => setScope(i, { ...scope, collections: toggled(scope.collections, c, isOn) })}
          />
          {!disabled && (
            <button
              type="button"
              className="button"
              onClick={() => set({ scopes: draft.scopes.filter((_, j) => j !== i) })}
            >
              Remove scope {i + 1}
            </button>
          )}
        </div>
      ))}
      {!disabled && (
        <button
          type="button"
          className="button"
          onClick={() => set({ scopes: [...draft.scopes, { contentTypes: [], collections: [] }] })}
        >
          Add scope
        </button>
      )}
      <h3>Steps</h3>
      {draft.steps.map((step, i) => (
        <StepEditor
          key={step.id}
          step={step}
          index={i}
          steps={draft.steps}
          roles={props.roles}
          disabled={disabled}
          problems={problems(`steps[${i}]`)}
          onChange={(s) => setStep(i, s)}
          onMove={(by) => moveStep(i, by)}
          onRemove={() => removeStep(i)}
        />
      ))}
      {!disabled && (
        <button type="button" className="button" onClick={() => set({ steps: [...draft.steps, newStep()] })}>
          Add step
        </button>
      )}
      <h3>Published and Archived</h3>
      <Choices
        legend="Roles that can unpublish"
        options={roleOptions}
        chosen={draft.unpublishRoleIds}
        disabled={disabled}
        onChange={(r, isOn) => set({ unpublishRoleIds: toggled(draft.unpublishRoleIds, r, isOn) })}
      />
      <Choices
        legend="Roles that can create new versions"
        options={roleOptions}
        chosen={draft.createNewVersionRoleIds}
        disabled={disabled}
        onChange={(r, isOn) => set({ createNewVersionRoleIds: toggled(draft.createNewVersionRoleIds, r, isOn) })}
      />
      <Choices
        legend="Roles that can archive"
        options={roleOptions}
        chosen={draft.archivedRoleIds}
        disabled={disabled}
        onChange={(r, isOn) => set({ archivedRoleIds: toggled(draft.archivedRoleIds, r, isOn) })}
      />
      <div className="settings-actions">
        {!disabled && (
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {draft.id ? 'Save changes' : 'Create workflow'}
          </button>
        )}
        <button type="button" className="button" onClick={props.onDone}>
          {disabled ? 'Close' : 'Cancel'}
        </button>
      </div>
    </form>
  );
}
