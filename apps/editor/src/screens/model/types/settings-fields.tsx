import { useId, useState } from 'react';
import type { Body } from './definition-draft.ts';

/*
 * The inputs of element settings, each bound to one property of the element's wire body (as the
 * Management API names it) and writing the value the API reads: a limit `{value, condition}`, a
 * text length `{value, applies_to}`, a list of strings, a list of references `[{id}]`.
 */

export interface FieldProps {
  readonly body: Body;
  readonly prop: string;
  readonly label: string;
  readonly onChange: (prop: string, value: unknown) => void;
}

export function TextField({ body, prop, label, onChange, isMultiline }: FieldProps & { isMultiline?: boolean }) {
  const id = useId();
  const value = typeof body[prop] === 'string' ? (body[prop] as string) : '';
  return (
    <p className="model-field">
      <label htmlFor={id}>{label}</label>
      {isMultiline ? (
        <textarea id={id} value={value} onChange={(e) => onChange(prop, e.currentTarget.value)} />
      ) : (
        <input id={id} type="text" value={value} onChange={(e) => onChange(prop, e.currentTarget.value)} />
      )}
    </p>
  );
}

export function CheckField({ body, prop, label, onChange }: FieldProps) {
  const id = useId();
  return (
    <p className="model-check">
      <input
        id={id}
        type="checkbox"
        checked={body[prop] === true}
        onChange={(e) => onChange(prop, e.currentTarget.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </p>
  );
}

function numberOrNull(text: string): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** A `{value, <mode>}` object, or null when the number is empty. */
export function LimitField({
  body,
  prop,
  label,
  onChange,
  modeProp,
  modes,
}: FieldProps & { modeProp: 'condition' | 'applies_to'; modes: readonly (readonly [string, string])[] }) {
  const id = useId();
  const current = (body[prop] ?? null) as { value?: unknown; [k: string]: unknown } | null;
  // The condition chosen before a number is typed is kept here (no value: the property is null).
  const [chosenMode, setChosenMode] = useState(modes[0]?.[0] ?? '');
  const mode = typeof current?.[modeProp] === 'string' ? (current[modeProp] as string) : chosenMode;
  const set = (valueText: string, nextMode: string) => {
    setChosenMode(nextMode);
    const value = numberOrNull(valueText);
    onChange(prop, value === null ? null : { value, [modeProp]: nextMode });
  };
  const valueText = typeof current?.value === 'number' ? String(current.value) : '';
  return (
    <fieldset className="model-choices">
      <legend>{label}</legend>
      <span className="model-check">
        <label htmlFor={`${id}-mode`}>Condition</label>
        <select id={`${id}-mode`} value={mode} onChange={(e) => set(valueText, e.currentTarget.value)}>
          {modes.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-value`}>Value</label>
        <input id={`${id}-value`} type="number" value={valueText} onChange={(e) => set(e.currentTarget.value, mode)} />
      </span>
    </fieldset>
  );
}

export const countModes = [
  ['at_most', 'At most'],
  ['exactly', 'Exactly'],
  ['at_least', 'At least'],
] as const;
export const lengthModes = [
  ['characters', 'Characters'],
  ['words', 'Words'],
] as const;

export function NumberField({ body, prop, label, onChange }: FieldProps) {
  const id = useId();
  return (
    <p className="model-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        value={typeof body[prop] === 'number' ? String(body[prop]) : ''}
        onChange={(e) => onChange(prop, numberOrNull(e.currentTarget.value))}
      />
    </p>
  );
}

export function SelectField({
  body,
  prop,
  label,
  onChange,
  choices,
}: FieldProps & { choices: readonly (readonly [string, string])[] }) {
  const id = useId();
  return (
    <p className="model-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={String(body[prop] ?? '')} onChange={(e) => onChange(prop, e.currentTarget.value)}>
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </p>
  );
}

/** A list of strings (allowed blocks, formatting…): checked values in the order of `choices`; none checked allows all. */
export function StringListField({ body, prop, label, onChange, choices }: FieldProps & { choices: readonly string[] }) {
  const id = useId();
  const list = Array.isArray(body[prop]) ? (body[prop] as string[]) : [];
  return (
    <fieldset className="model-choices">
      <legend>{label} (none checked: all)</legend>
      <ul>
        {choices.map((choice) => (
          <li key={choice} className="model-check">
            <input
              id={`${id}-${choice}`}
              type="checkbox"
              checked={list.includes(choice)}
              onChange={(e) =>
                onChange(
                  prop,
                  e.currentTarget.checked
                    ? choices.filter((c) => c === choice || list.includes(c))
                    : list.filter((c) => c !== choice),
                )
              }
            />
            <label htmlFor={`${id}-${choice}`}>{choice}</label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** A list of references `[{id}]` (or `{codename}` for what is not saved yet) among `choices`. */
export function RefListField({
  body,
  prop,
  label,
  onChange,
  choices,
}: FieldProps & { choices: readonly { ref: Body; label: string }[] }) {
  const id = useId();
  const list = Array.isArray(body[prop]) ? (body[prop] as Body[]) : [];
  const has = (ref: Body) => list.some((r) => JSON.stringify(r) === JSON.stringify(ref));
  return (
    <fieldset className="model-choices">
      <legend>{label}</legend>
      {choices.length === 0 && <p>Nothing to choose from yet.</p>}
      <ul>
        {choices.map((choice, i) => (
          <li key={JSON.stringify(choice.ref)} className="model-check">
            <input
              id={`${id}-${i}`}
              type="checkbox"
              checked={has(choice.ref)}
              onChange={(e) =>
                onChange(
                  prop,
                  e.currentTarget.checked
                    ? [...list, choice.ref]
                    : list.filter((r) => JSON.stringify(r) !== JSON.stringify(choice.ref)),
                )
              }
            />
            <label htmlFor={`${id}-${i}`}>{choice.label}</label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
