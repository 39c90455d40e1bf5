import { refIds } from './model.ts';
import type { ElementProps } from './element-props.ts';

interface ChoiceOption {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
}

/**
 * A multiple choice element: radio buttons in single mode (with "Clear"), checkboxes in multiple
 * mode. The value lists the chosen options as `[{id}]`, in the order the type defines them.
 */
export function MultipleChoiceElement({
  element,
  value,
  onChange,
  isReadOnly,
  inputId,
  labelId,
  describedBy,
}: ElementProps) {
  const options = (element['options'] ?? []) as ChoiceOption[];
  const isSingle = element['mode'] === 'single';
  const chosen = new Set(refIds(value.value));
  const choose = (ids: Set<string>) =>
    onChange({ ...value, value: options.filter((o) => ids.has(o.id)).map((o) => ({ id: o.id })) });
  return (
    <div
      className="element-choices"
      role={isSingle ? 'radiogroup' : 'group'}
      aria-labelledby={labelId}
      aria-describedby={describedBy}
    >
      {options.map((o, i) => (
        <label key={o.id} className="element-choice">
          <input
            id={i === 0 ? inputId : undefined}
            type={isSingle ? 'radio' : 'checkbox'}
            name={inputId}
            value={o.id}
            checked={chosen.has(o.id)}
            disabled={isReadOnly}
            onChange={(e) => {
              if (isSingle) choose(new Set([o.id]));
              else {
                const next = new Set(chosen);
                if (e.target.checked) next.add(o.id);
                else next.delete(o.id);
                choose(next);
              }
            }}
          />
          {o.name}
        </label>
      ))}
      {isSingle && chosen.size > 0 && !isReadOnly ? (
        <button type="button" className="button-link" onClick={() => choose(new Set())}>
          Clear
        </button>
      ) : null}
    </div>
  );
}
