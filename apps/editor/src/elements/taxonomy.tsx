import { refIds } from './model.ts';
import type { ElementProps } from './element-props.ts';
import { useFormScope } from './element-props.ts';
import { useTaxonomy, type TaxonomyTerm } from './queries.ts';

/**
 * A taxonomy element: the element's taxonomy group as a tree of checkboxes. The value lists the
 * chosen terms as `[{id}]`; a term chosen elsewhere that the group no longer has stays in it.
 */
export function TaxonomyElement({ element, value, onChange, isReadOnly, inputId, labelId, describedBy }: ElementProps) {
  const { projectId } = useFormScope();
  const groupId = (element['taxonomy_group'] as { id: string } | undefined)?.id;
  const group = useTaxonomy(projectId, groupId);
  const chosen = refIds(value.value);
  const toggle = (id: string, isOn: boolean) => {
    const next = isOn ? [...chosen, id] : chosen.filter((c) => c !== id);
    onChange({ ...value, value: next.map((c) => ({ id: c })) });
  };
  if (group.isPending) return <p className="element-note">Loading the taxonomy…</p>;
  if (group.isError) return <p className="element-error">The taxonomy group could not be loaded.</p>;
  let first = true;
  const tree = (terms: readonly TaxonomyTerm[]) => (
    <ul className="taxonomy-tree">
      {terms.map((t) => {
        const id = first ? inputId : undefined;
        first = false;
        return (
          <li key={t.id}>
            <label className="element-choice">
              <input
                id={id}
                type="checkbox"
                checked={chosen.includes(t.id)}
                disabled={isReadOnly}
                onChange={(e) => toggle(t.id, e.target.checked)}
              />
              {t.name}
            </label>
            {t.terms.length > 0 ? tree(t.terms) : null}
          </li>
        );
      })}
    </ul>
  );
  return (
    <div role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="element-taxonomy">
      {group.data.terms.length === 0 ? (
        <p className="element-note">The taxonomy group {group.data.name} has no terms.</p>
      ) : (
        tree(group.data.terms)
      )}
    </div>
  );
}
