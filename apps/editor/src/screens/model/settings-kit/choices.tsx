import { useId } from 'react';
import { FieldProblem } from './settings-kit.tsx';

/**
 * A group of checkboxes in a `<fieldset>` with its legend: the roles of a step, the content types
 * and collections of a scope, the steps a step leads to. `chosen` holds the ids checked.
 */
export function Choices(props: {
  readonly legend: string;
  readonly options: readonly { readonly id: string; readonly label: string }[];
  readonly chosen: readonly string[];
  readonly disabled?: boolean;
  readonly problems?: readonly string[];
  readonly onChange: (id: string, isOn: boolean) => void;
}) {
  const id = useId();
  return (
    <fieldset className="choices">
      <legend>{props.legend}</legend>
      {props.options.length === 0 && <span className="hint">None to choose from.</span>}
      {props.options.map((o) => (
        <label key={o.id}>
          <input
            type="checkbox"
            checked={props.chosen.includes(o.id)}
            disabled={props.disabled}
            onChange={(e) => props.onChange(o.id, e.currentTarget.checked)}
          />{' '}
          {o.label}
        </label>
      ))}
      <FieldProblem id={`${id}-problem`} messages={props.problems ?? []} />
    </fieldset>
  );
}
