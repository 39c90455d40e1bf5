/** What a row of an ordered list value (assets, linked items, subpages) needs to move and remove itself. */
export interface ListEntryProps {
  readonly index: number;
  readonly count: number;
  readonly isReadOnly: boolean;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

/** Up, Down and Remove for one entry of an ordered list value, each named after the entry; nothing when read-only. */
export function ListEntryActions(props: ListEntryProps & { readonly name: string }) {
  if (props.isReadOnly) return null;
  const { name } = props;
  return (
    <span className="element-list-actions">
      <button
        type="button"
        disabled={props.index === 0}
        onClick={() => props.onMove(-1)}
        aria-label={`Move ${name} up`}
      >
        Up
      </button>
      <button
        type="button"
        disabled={props.index === props.count - 1}
        onClick={() => props.onMove(1)}
        aria-label={`Move ${name} down`}
      >
        Down
      </button>
      <button type="button" onClick={props.onRemove} aria-label={`Remove ${name}`}>
        Remove
      </button>
    </span>
  );
}
