import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, mapi } from '../api/client.ts';
import { Dialog } from './dialog.tsx';
import type { AssetJson } from './queries.ts';

/**
 * The asset chooser the asset element opens: the project's assets (first pages, filtered by
 * name as you type), each one chosen with a button. Stands in for the assets screen's
 * `AssetPicker` with the same props until that one is in the tree.
 */
export function AssetListDialog(props: {
  projectId: string;
  isOpen: boolean;
  onClose: () => void;
  onPick: (assets: AssetJson[]) => void;
  isMultiple: boolean;
  isImagesOnly: boolean;
}) {
  const { projectId, isOpen, onClose, onPick, isImagesOnly } = props;
  const [search, setSearch] = useState('');
  const assets = useQuery({
    queryKey: ['mapi', projectId, 'assets-list'],
    queryFn: async () => (await api<{ assets: AssetJson[] }>(mapi(projectId, '/assets'))).assets,
    enabled: isOpen,
  });
  if (!isOpen) return null;
  const needle = search.trim().toLowerCase();
  const shown = (assets.data ?? []).filter(
    (a) =>
      (!isImagesOnly || a.image_width !== null) &&
      (needle === '' || `${a.title ?? ''} ${a.file_name}`.toLowerCase().includes(needle)),
  );
  return (
    <Dialog title="Insert assets" onClose={onClose}>
      <label htmlFor="asset-list-search">Search assets</label>
      <input id="asset-list-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      {assets.isPending ? <p>Loading assets…</p> : null}
      {assets.isError ? <p className="element-error">The assets could not be loaded.</p> : null}
      <ul className="picker-list">
        {shown.map((a) => (
          <li key={a.id}>
            {a.image_width !== null ? <img src={a.url} alt="" width={48} height={48} className="thumb" /> : null}
            <span>{a.title || a.file_name}</span>
            <button type="button" onClick={() => onPick([a])}>
              Insert
            </button>
          </li>
        ))}
      </ul>
      {assets.isSuccess && shown.length === 0 ? <p>No assets match.</p> : null}
    </Dialog>
  );
}
