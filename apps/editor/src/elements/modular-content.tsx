import { useState } from 'react';
import { Link } from 'wouter';
import { moved, refIds, type Limit } from './model.ts';
import type { ElementProps } from './element-props.ts';
import { useFormScope } from './element-props.ts';
import { ItemPicker } from './item-picker.tsx';
import { useItem, useTypes } from './queries.ts';
import { ListEntryActions, type ListEntryProps } from './list-entry-actions.tsx';

function LinkedRow(props: ListEntryProps & { itemId: string }) {
  const { projectId, language } = useFormScope();
  const item = useItem(projectId, props.itemId);
  const types = useTypes(projectId);
  const name = item.data?.name ?? (item.isError ? 'Missing item' : 'Loading…');
  const typeName = types.data?.find((t) => t.id === item.data?.type.id)?.name;
  return (
    <li className="element-list-row">
      {item.data ? (
        <Link href={`/p/${projectId}/${language.codename}/items/${props.itemId}`} className="element-list-name">
          {name}
        </Link>
      ) : (
        <span className="element-list-name">{name}</span>
      )}
      {typeName ? <span className="element-note">{typeName}</span> : null}
      <ListEntryActions {...props} name={name} />
    </li>
  );
}

/**
 * Linked items (`modular_content`): the linked items in order with their types; add through the
 * item picker (search, allowed types, create new), remove, reorder. Subpages are the same.
 */
export function ModularContentElement({
  element,
  value,
  onChange,
  isReadOnly,
  inputId,
  labelId,
  describedBy,
}: ElementProps) {
  const [isPicking, setPicking] = useState(false);
  const ids = refIds(value.value);
  const allowed = ((element['allowed_content_types'] ?? []) as { id: string }[]).map((t) => t.id);
  const limit = element['item_count_limit'] as Limit | null | undefined;
  const isFull = limit && limit.condition !== 'at_least' ? ids.length >= limit.value : false;
  const set = (next: string[]) => onChange({ ...value, value: next.map((id) => ({ id })) });
  return (
    <div role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="element-linked">
      {ids.length === 0 ? <p className="element-note">No items.</p> : null}
      <ul className="element-list">
        {ids.map((id, i) => (
          <LinkedRow
            key={id}
            itemId={id}
            index={i}
            count={ids.length}
            isReadOnly={isReadOnly}
            onMove={(by) => set(moved(ids, i, by))}
            onRemove={() => set(ids.filter((_, j) => j !== i))}
          />
        ))}
      </ul>
      {isReadOnly ? null : (
        <button id={inputId} type="button" disabled={isFull} onClick={() => setPicking(true)}>
          Insert existing items
        </button>
      )}
      {isPicking ? (
        <ItemPicker
          allowedTypeIds={allowed}
          excludeIds={ids}
          onClose={() => setPicking(false)}
          onPick={(picked) => {
            set([...ids, ...picked.filter((p) => !ids.includes(p))]);
            setPicking(false);
          }}
        />
      ) : null}
    </div>
  );
}
