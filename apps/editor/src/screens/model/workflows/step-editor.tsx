import { useId } from 'react';
import type { Role } from '../settings-kit/model-data.ts';
import { Choices } from '../settings-kit/choices.tsx';
import { FieldProblem, problemProps } from '../settings-kit/settings-kit.tsx';
import { archivedStepId, publishedStepId, stepColors, toggled, type StepDraft } from './workflow-draft.ts';

/**
 * One step of a workflow being edited: name, codename, colour, the steps it can move to, and the
 * roles that may work in it (none chosen = every role, as in Kontent.ai). `problems` are the
 * server's messages about this step (`steps[i]…`), shown under it.
 */
export function StepEditor(props: {
  readonly step: StepDraft;
  readonly index: number;
  readonly steps: readonly StepDraft[];
  readonly roles: readonly Role[];
  readonly disabled: boolean;
  readonly problems: readonly string[];
  readonly onChange: (step: StepDraft) => void;
  readonly onMove: (by: -1 | 1) => void;
  readonly onRemove: () => void;
}) {
  const { step } = props;
  const id = useId();
  const set = (patch: Partial<StepDraft>) => props.onChange({ ...step, ...patch });
  const label = step.name || `Step ${props.index + 1}`;
  const targets = [
    ...props.steps.filter((s) => s.id !== step.id).map((s) => ({ id: s.id, label: s.name || '(unnamed step)' })),
    { id: publishedStepId, label: 'Published' },
    { id: archivedStepId, label: 'Archived' },
  ];
  return (
    <fieldset className="workflow-step" aria-describedby={props.problems.length ? `${id}-problem` : undefined}>
      <legend>
        <span className="step-swatch" data-color={step.color} aria-hidden="true" /> {label}
      </legend>
      <div className="step-fields">
        <div className="field">
          <label htmlFor={`${id}-name`}>Step name</label>
          <input
            id={`${id}-name`}
            value={step.name}
            disabled={props.disabled}
            onChange={(e) => set({ name: e.currentTarget.value })}
            {...problemProps(`${id}-problem`, props.problems)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-codename`}>Step codename</label>
          <input
            id={`${id}-codename`}
            className="codename"
            value={step.codename}
            placeholder="from the name"
            disabled={props.disabled}
            onChange={(e) => set({ codename: e.currentTarget.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-color`}>Colour</label>
          <select
            id={`${id}-color`}
            value={step.color}
            disabled={props.disabled}
            onChange={(e) => set({ color: e.currentTarget.value })}
          >
            {stepColors.map((c) => (
              <option key={c} value={c}>
                {c.replace('-', ' ')}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FieldProblem id={`${id}-problem`} messages={props.problems} />
      <Choices
        legend="Can move to"
        options={targets}
        chosen={step.transitionsTo}
        disabled={props.disabled}
        onChange={(target, isOn) => set({ transitionsTo: toggled(step.transitionsTo, target, isOn) })}
      />
      <Choices
        legend="Roles that can work in this step"
        options={props.roles.map((r) => ({ id: r.id, label: r.name }))}
        chosen={step.roleIds}
        disabled={props.disabled}
        onChange={(role, isOn) => set({ roleIds: toggled(step.roleIds, role, isOn) })}
      />
      {!props.disabled && (
        <div className="settings-actions">
          <button
            type="button"
            className="button"
            aria-label={`Move up step ${label}`}
            disabled={props.index === 0}
            onClick={() => props.onMove(-1)}
          >
            Move up
          </button>
          <button
            type="button"
            className="button"
            aria-label={`Move down step ${label}`}
            disabled={props.index === props.steps.length - 1}
            onClick={() => props.onMove(1)}
          >
            Move down
          </button>
          <button
            type="button"
            className="button button-danger"
            aria-label={`Remove step ${label}`}
            onClick={props.onRemove}
          >
            Remove step
          </button>
        </div>
      )}
    </fieldset>
  );
}
