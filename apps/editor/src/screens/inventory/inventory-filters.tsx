import type { Collection, ContentType, Workflow } from '../../api/project-model.ts';
import { publishingStates, type ContributorFilter, type InventoryView, type PublishingState } from './inventory-url.ts';

const stateNames: Record<PublishingState, string> = {
  published: 'Published',
  unpublished: 'Unpublished',
  not_published_yet: 'Not published yet',
};

interface Option {
  readonly value: string;
  readonly label: string;
}

function toggle<T extends string>(list: readonly T[], value: T, isOn: boolean): T[] {
  return isOn ? [...new Set([...list, value])] : list.filter((v) => v !== value);
}

/** A filter as a disclosure: its name and how many are chosen; inside, a checkbox per option. */
function CheckboxFilter(props: {
  id: string;
  legend: string;
  options: readonly Option[];
  chosen: readonly string[];
  onChange(next: string[]): void;
}) {
  return (
    <details className="inventory-filter">
      <summary>
        {props.legend}
        {props.chosen.length > 0 && ` (${props.chosen.length})`}
      </summary>
      <fieldset>
        <legend className="visually-hidden">{props.legend}</legend>
        {props.options.length === 0 && <p>None in this project.</p>}
        {props.options.map((o) => (
          <label key={o.value}>
            <input
              type="checkbox"
              name={props.id}
              value={o.value}
              checked={props.chosen.includes(o.value)}
              onChange={(e) => props.onChange(toggle(props.chosen, o.value, e.currentTarget.checked))}
            />
            {o.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/** Workflow steps as `{workflowId}:{stepId}` options, named "Workflow: Step" when there are several workflows. */
function stepOptions(workflows: readonly Workflow[]): Option[] {
  return workflows.flatMap((w) =>
    [...w.steps, w.scheduled_step, w.published_step, w.archived_step].map((s) => ({
      value: `${w.id}:${s.id}`,
      label: workflows.length > 1 ? `${w.name}: ${s.name}` : s.name,
    })),
  );
}

/** The inventory's filters (Kontent.ai's: content types, collections, workflow steps, contributors, publishing state). */
export function InventoryFilters(props: {
  view: InventoryView;
  types: readonly ContentType[];
  collections: readonly Collection[];
  workflows: readonly Workflow[];
  onChange(next: InventoryView): void;
}) {
  const { view, onChange } = props;
  const contributorOptions: { value: ContributorFilter; label: string }[] = [
    { value: null, label: 'Anyone' },
    { value: 'me', label: 'Assigned to me' },
    { value: 'none', label: 'No contributors' },
  ];
  const isFiltered =
    view.types.length + view.collections.length + view.steps.length + view.states.length > 0 ||
    view.contributor !== null;
  return (
    <div className="inventory-filters" role="group" aria-label="Filters">
      <CheckboxFilter
        id="types"
        legend="Content types"
        options={props.types.map((t) => ({ value: t.id, label: t.name }))}
        chosen={view.types}
        onChange={(types) => onChange({ ...view, types })}
      />
      <CheckboxFilter
        id="collections"
        legend="Collections"
        options={props.collections.map((c) => ({ value: c.id, label: c.name }))}
        chosen={view.collections}
        onChange={(collections) => onChange({ ...view, collections })}
      />
      <CheckboxFilter
        id="steps"
        legend="Workflow steps"
        options={stepOptions(props.workflows)}
        chosen={view.steps}
        onChange={(steps) => onChange({ ...view, steps })}
      />
      <details className="inventory-filter">
        <summary>Contributors{view.contributor !== null && ' (1)'}</summary>
        <fieldset>
          <legend className="visually-hidden">Contributors</legend>
          {contributorOptions.map((o) => (
            <label key={o.label}>
              <input
                type="radio"
                name="contributors"
                checked={view.contributor === o.value}
                onChange={() => onChange({ ...view, contributor: o.value })}
              />
              {o.label}
            </label>
          ))}
        </fieldset>
      </details>
      <CheckboxFilter
        id="states"
        legend="Publishing state"
        options={publishingStates.map((s) => ({ value: s, label: stateNames[s] }))}
        chosen={view.states}
        onChange={(states) => onChange({ ...view, states: states as PublishingState[] })}
      />
      {isFiltered && (
        <button
          type="button"
          className="link-button"
          onClick={() => onChange({ ...view, types: [], collections: [], steps: [], states: [], contributor: null })}
        >
          Clear filters
        </button>
      )}
    </div>
  );
}
