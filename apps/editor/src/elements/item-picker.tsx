import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, mapi } from '../api/client.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { useFormScope } from './element-props.ts';
import { useTypes, type ItemJson } from './queries.ts';

interface Found {
  readonly item: ItemJson;
}

/**
 * Items of the project in the form's language that match a search phrase and types: the first
 * page of `POST /items-with-variant/filter` (by name), then `bulk-get` for their names and types.
 */
async function searchItems(projectId: string, languageId: string, phrase: string, typeIds: string[]): Promise<Found[]> {
  const filter = await api<{ variants: { item: { id: string }; language: { id: string } }[] }>(
    mapi(projectId, '/items-with-variant/filter'),
    {
      method: 'POST',
      body: {
        filters: {
          language: { id: languageId },
          ...(phrase.trim() ? { search_phrase: phrase.trim() } : {}),
          ...(typeIds.length > 0 ? { content_types: typeIds.map((id) => ({ id })) } : {}),
        },
        order: { by: 'name', direction: 'asc' },
      },
    },
  );
  if (filter.variants.length === 0) return [];
  const got = await api<{ data: Found[] }>(mapi(projectId, '/items-with-variant/bulk-get'), {
    method: 'POST',
    body: { variants: filter.variants.map((v) => ({ item: v.item, language: v.language })) },
  });
  return got.data;
}

/**
 * The item picker of linked items and subpages: search by name, filter by the element's allowed
 * types, pick items; "Create new" makes an item of an allowed type (`POST /items`) and links it.
 */
export function ItemPicker(props: {
  allowedTypeIds: readonly string[];
  excludeIds: readonly string[];
  onPick: (itemIds: string[]) => void;
  onClose: () => void;
}) {
  const { projectId, language } = useFormScope();
  const types = useTypes(projectId);
  const [phrase, setPhrase] = useState('');
  const [typeId, setTypeId] = useState('');
  const [newName, setNewName] = useState('');
  const [newType, setNewType] = useState(props.allowedTypeIds[0] ?? '');
  const [createError, setCreateError] = useState<string | null>(null);
  const choosable = (types.data ?? []).filter(
    (t) => props.allowedTypeIds.length === 0 || props.allowedTypeIds.includes(t.id),
  );
  const typeFilter = typeId ? [typeId] : [...props.allowedTypeIds];
  const found = useQuery({
    queryKey: ['mapi', projectId, 'item-search', language.id, phrase, typeFilter],
    queryFn: () => searchItems(projectId, language.id, phrase, typeFilter),
  });
  const typeName = (id: string) => types.data?.find((t) => t.id === id)?.name ?? '';
  const create = async () => {
    setCreateError(null);
    try {
      const item = await api<ItemJson>(mapi(projectId, '/items'), {
        method: 'POST',
        body: { name: newName.trim(), type: { id: newType || choosable[0]?.id } },
      });
      props.onPick([item.id]);
    } catch (e) {
      setCreateError(e instanceof Error ? e.message : 'The item could not be created.');
    }
  };
  return (
    <ModalDialog isOpen title="Insert existing items" onClose={props.onClose} className="item-picker">
      <div className="picker-filters">
        <label htmlFor="item-picker-search">Search by name</label>
        <input id="item-picker-search" type="search" value={phrase} onChange={(e) => setPhrase(e.target.value)} />
        <label htmlFor="item-picker-type">Content type</label>
        <select id="item-picker-type" value={typeId} onChange={(e) => setTypeId(e.target.value)}>
          <option value="">{props.allowedTypeIds.length > 0 ? 'Any allowed type' : 'Any type'}</option>
          {choosable.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      {found.isPending ? <p>Searching…</p> : null}
      {found.isError ? <p className="element-error">{found.error.message}</p> : null}
      <ul className="picker-list">
        {(found.data ?? [])
          .filter((f) => !props.excludeIds.includes(f.item.id))
          .map((f) => (
            <li key={f.item.id}>
              <span>{f.item.name}</span> <span className="element-note">{typeName(f.item.type.id)}</span>
              <button type="button" onClick={() => props.onPick([f.item.id])} aria-label={`Insert ${f.item.name}`}>
                Insert
              </button>
            </li>
          ))}
      </ul>
      {found.isSuccess && found.data.length === 0 ? <p>No items match.</p> : null}
      {/* Not a <form>: the picker opens inside the item editor's own controls. */}
      <div className="picker-create" role="group" aria-labelledby="item-picker-create">
        <h3 id="item-picker-create">Create new</h3>
        <label htmlFor="item-picker-new-name">Name</label>
        <input
          id="item-picker-new-name"
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && newName.trim() !== '') {
              e.preventDefault();
              void create();
            }
          }}
        />
        <label htmlFor="item-picker-new-type">Content type of the new item</label>
        <select id="item-picker-new-type" value={newType} onChange={(e) => setNewType(e.target.value)}>
          {choosable.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        <button type="button" disabled={newName.trim() === ''} onClick={() => void create()}>
          Create new
        </button>
        {createError ? <p className="element-error">{createError}</p> : null}
      </div>
    </ModalDialog>
  );
}
