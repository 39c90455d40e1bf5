import { useId } from 'react';
import type { DefinitionKind, Draft, Entry } from './definition-draft.ts';
import { kindLabels } from './element-card.tsx';
import type { ProblemMap } from './server-problems.ts';
import type { useDraft } from './use-draft.ts';

/** The name and codename of the type or snippet. */
export function DefinitionFields({
  draft,
  isReadOnly,
  setField,
}: {
  draft: Draft;
  isReadOnly: boolean;
  setField: (field: 'name' | 'codename', value: string) => void;
}) {
  const id = useId();
  return (
    <fieldset disabled={isReadOnly} className="type-fields">
      <p className="model-field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          type="text"
          value={draft.name}
          onChange={(e) => setField('name', e.currentTarget.value)}
        />
      </p>
      <p className="model-field">
        <label htmlFor={`${id}-codename`}>Codename</label>
        <input
          id={`${id}-codename`}
          type="text"
          value={draft.codename}
          onChange={(e) => setField('codename', e.currentTarget.value)}
        />
      </p>
    </fieldset>
  );
}

/** Content groups: name and codename of each, reordered with "Move up" / "Move down", added, removed. */
export function GroupsSection({
  groups,
  isReadOnly,
  problems,
  editing,
}: {
  groups: readonly Entry[];
  isReadOnly: boolean;
  problems: ProblemMap;
  editing: ReturnType<typeof useDraft>;
}) {
  const id = useId();
  return (
    <section className="type-groups" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Content groups</h2>
      {groups.length === 0 && <p>No content groups: every element shows in one list.</p>}
      <ol>
        {groups.map((g, i) => {
          const name = String(g.body['name'] ?? '');
          return (
            <li key={g.key}>
              <fieldset disabled={isReadOnly} className="group-row">
                <p className="model-field">
                  <label htmlFor={`${id}-${g.key}-name`}>Group {i + 1} name</label>
                  <input
                    id={`${id}-${g.key}-name`}
                    type="text"
                    value={name}
                    onChange={(e) => editing.changeGroup(g.key, 'name', e.currentTarget.value)}
                  />
                </p>
                <p className="model-field">
                  <label htmlFor={`${id}-${g.key}-codename`}>Group {i + 1} codename</label>
                  <input
                    id={`${id}-${g.key}-codename`}
                    type="text"
                    value={String(g.body['codename'] ?? '')}
                    onChange={(e) => editing.changeGroup(g.key, 'codename', e.currentTarget.value)}
                  />
                </p>
                {!isReadOnly && (
                  <>
                    <button
                      type="button"
                      className="button"
                      disabled={i === 0}
                      onClick={() => editing.moveGroup(g.key, i - 1)}
                    >
                      Move up<span className="visually-hidden"> group {name}</span>
                    </button>
                    <button
                      type="button"
                      className="button"
                      disabled={i === groups.length - 1}
                      onClick={() => editing.moveGroup(g.key, i + 1)}
                    >
                      Move down<span className="visually-hidden"> group {name}</span>
                    </button>
                    <button type="button" className="button button-danger" onClick={() => editing.removeGroup(g.key)}>
                      Remove<span className="visually-hidden"> group {name}</span>
                    </button>
                  </>
                )}
              </fieldset>
              {(problems.get(g.key) ?? []).length > 0 && (
                <ul className="model-errors" aria-label={`Problems of group ${name}`}>
                  {(problems.get(g.key) ?? []).map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
      {!isReadOnly && (
        <button type="button" className="button" onClick={editing.addGroup}>
          Add content group
        </button>
      )}
    </section>
  );
}

/**
 * "Add element": one button per kind (a snippet has no snippet or URL slug elements); the new
 * element is added at the end and its first field takes the focus.
 */
export function AddElement({ kind, onAdd }: { kind: DefinitionKind; onAdd: (type: string) => string }) {
  const id = useId();
  const kinds = Object.keys(kindLabels).filter((k) => kind === 'types' || (k !== 'snippet' && k !== 'url_slug'));
  return (
    <section className="add-element" aria-labelledby={id}>
      <h3 id={id}>Add element</h3>
      <ul>
        {kinds.map((k) => (
          <li key={k}>
            <button
              type="button"
              className="button"
              onClick={() => {
                const key = onAdd(k);
                setTimeout(() => {
                  document
                    .querySelector<HTMLElement>(
                      `[data-element-key="${key}"] fieldset input, [data-element-key="${key}"] fieldset select, [data-element-key="${key}"] fieldset textarea`,
                    )
                    ?.focus();
                }, 0);
              }}
            >
              <span className="visually-hidden">Add </span>
              {kindLabels[k]}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
