import { useMemo, useState } from 'react';
import { useParams } from 'wouter';
import {
  filterAssets,
  useAssets,
  useFolders,
  useLiveAssets,
  useMayChangeAssets,
  type AssetFilter,
} from '../../api/assets.ts';
import { AssetFilters, AssetGrid, FolderNav } from '../../ui/asset-grid.tsx';
import { errorText } from '../../ui/error-text.ts';
import { UploadZone } from '../../ui/upload-zone.tsx';
import { AssetDetail } from './asset-detail.tsx';
import { FolderActions } from './folder-actions.tsx';
import '../../styles/assets.css';
import '../../styles/dialog.css';

/**
 * "Assets": the project's asset library. Folders on the side (browse, create, rename), search and
 * type filter, grid or list, "Upload assets" into the current folder (file input or drop), and the
 * open asset's detail beside the list.
 */
export function AssetsScreen() {
  const { projectId = '' } = useParams<{ projectId: string; language: string }>();
  return <AssetLibrary projectId={projectId} />;
}

export function AssetLibrary({ projectId }: { projectId: string }) {
  const assets = useAssets(projectId);
  const folders = useFolders(projectId);
  useLiveAssets(projectId);
  const mayChange = useMayChangeAssets(projectId);
  const [filter, setFilter] = useState<AssetFilter>({ search: '', type: 'all', folderId: null });
  const [view, setView] = useState<'grid' | 'list'>('grid');
  const [openId, setOpenId] = useState<string | null>(null);
  const shown = useMemo(() => filterAssets(assets.data ?? [], filter), [assets.data, filter]);
  const open = assets.data?.find((a) => a.id === openId) ?? null;
  const selected = useMemo(() => new Set(openId ? [openId] : []), [openId]);

  return (
    <main className="assets-page">
      <div className="assets-toolbar">
        <h1>Assets</h1>
        <AssetFilters filter={filter} onChange={setFilter} />
        <fieldset className="view-toggle">
          <legend className="visually-hidden">View</legend>
          <button type="button" className="button" aria-pressed={view === 'grid'} onClick={() => setView('grid')}>
            Grid
          </button>
          <button type="button" className="button" aria-pressed={view === 'list'} onClick={() => setView('list')}>
            List
          </button>
        </fieldset>
      </div>
      <div className={open ? 'assets-layout has-detail' : 'assets-layout'}>
        <div>
          <FolderNav
            folders={folders.data ?? []}
            current={filter.folderId}
            onSelect={(folderId) => setFilter({ ...filter, folderId })}
          />
          {mayChange && (
            <FolderActions
              projectId={projectId}
              folders={folders.data ?? []}
              current={filter.folderId}
              onCreated={(folderId) => setFilter({ ...filter, folderId })}
            />
          )}
          {folders.isError && (
            <p role="alert" className="error">
              {errorText(folders.error)}
            </p>
          )}
        </div>
        <section aria-label="Asset list">
          {mayChange && <UploadZone projectId={projectId} folderId={filter.folderId || null} />}
          {assets.isPending ? (
            <p role="status">Loading assets…</p>
          ) : assets.isError ? (
            <p role="alert" className="error">
              {errorText(assets.error)}
            </p>
          ) : (
            <>
              <p role="status" className="asset-meta">
                {assets.isFetching ? 'Loading assets…' : `${shown.length} of ${assets.data.length} assets`}
              </p>
              <AssetGrid
                assets={shown}
                selectedIds={selected}
                mode="open"
                view={view}
                onActivate={(asset) => setOpenId(asset.id)}
              />
            </>
          )}
        </section>
        {open && (
          <AssetDetail projectId={projectId} asset={open} canChange={mayChange} onClose={() => setOpenId(null)} />
        )}
      </div>
    </main>
  );
}
