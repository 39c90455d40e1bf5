import { useId, useState } from 'react';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { useItemSearch, useTypes, type ItemJson, type TypeJson } from './rich-text-api.ts';

/** The item list of a picker: search by name, the allowed types only, one click (or Enter) picks. */
export function ItemSearchList(props: {
  readonly projectId: string;
  readonly typeIds: readonly string[] | null;
  readonly onPick: (item: ItemJson) => void;
  readonly isEnabled: boolean;
}) {
  const [search, setSearch] = useState('');
  const searchId = useId();
  const found = useItemSearch({
    projectId: props.projectId,
    search,
    typeIds: props.typeIds,
    isEnabled: props.isEnabled,
  });
  const types = useTypes(props.projectId, props.isEnabled);
  const typeName = (id: string) => types.data?.find((t) => t.id === id)?.name ?? '';
  return (
    <div className="rt-picker">
      <label htmlFor={searchId}>Search content items</label>
      <input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} autoFocus />
      {found.isPending ? <p role="status">Loading…</p> : null}
      {found.isError ? <p role="alert">The items could not be loaded: {found.error.message}</p> : null}
      {found.data?.length === 0 ? <p role="status">No content items match.</p> : null}
      <ul className="rt-picker-list">
        {(found.data ?? []).map((item) => (
          <li key={item.id}>
            <button type="button" className="rt-picker-choice" onClick={() => props.onPick(item)}>
              <span className="rt-picker-name">{item.name}</span>
              <span className="rt-picker-meta">{typeName(item.type.id)}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "Insert existing content item": a linked item of an allowed type. */
export function ItemPickerDialog(props: {
  readonly projectId: string;
  readonly isOpen: boolean;
  readonly title: string;
  readonly typeIds: readonly string[] | null;
  readonly onClose: () => void;
  readonly onPick: (item: ItemJson) => void;
}) {
  return (
    <ModalDialog isOpen={props.isOpen} onClose={props.onClose} title={props.title}>
      <ItemSearchList
        projectId={props.projectId}
        typeIds={props.typeIds}
        onPick={props.onPick}
        isEnabled={props.isOpen}
      />
    </ModalDialog>
  );
}

/** "Insert new component": the component's content type, among the allowed ones. */
export function ComponentTypeDialog(props: {
  readonly projectId: string;
  readonly isOpen: boolean;
  readonly typeIds: readonly string[] | null;
  readonly onClose: () => void;
  readonly onPick: (type: TypeJson) => void;
}) {
  const types = useTypes(props.projectId, props.isOpen);
  const allowed = (types.data ?? []).filter((t) => props.typeIds === null || props.typeIds.includes(t.id));
  return (
    <ModalDialog isOpen={props.isOpen} onClose={props.onClose} title="Insert new component">
      {types.isPending ? <p role="status">Loading…</p> : null}
      {types.isError ? <p role="alert">The content types could not be loaded: {types.error.message}</p> : null}
      <ul className="rt-picker-list">
        {allowed.map((type) => (
          <li key={type.id}>
            <button type="button" className="rt-picker-choice" onClick={() => props.onPick(type)}>
              <span className="rt-picker-name">{type.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </ModalDialog>
  );
}
