import { useMemo, useState } from 'react';
import {
  filterAssets,
  isImage,
  useAssets,
  useFolders,
  useLiveAssets,
  type AssetFilter,
  type AssetJson,
} from '../api/assets.ts';
import { AssetFilters, AssetGrid, FolderNav } from './asset-grid.tsx';
import { errorText } from './error-text.ts';
import { ModalDialog } from './modal-dialog.tsx';
import { UploadZone } from './upload-zone.tsx';

export interface AssetPickerProps {
  readonly projectId: string;
  readonly isOpen: boolean;
  readonly onClose: () => void;
  /** The chosen assets, in the order they were chosen; the picker closes itself only through onClose. */
  readonly onPick: (assets: AssetJson[]) => void;
  readonly isMultiple?: boolean;
  /** Only images are listed and accepted for upload (the rich text's images). */
  readonly isImagesOnly?: boolean;
}

/**
 * "Insert assets": a modal dialog listing the project's assets (thumbnails, search, folders) with
 * upload inside it. A single picker returns the asset chosen at once; a multiple one collects a
 * choice and returns it with "Insert". An asset uploaded here is chosen right away.
 */
export function AssetPicker({
  projectId,
  isOpen,
  onClose,
  onPick,
  isMultiple = false,
  isImagesOnly = false,
}: AssetPickerProps) {
  const assets = useAssets(projectId, isOpen);
  const folders = useFolders(projectId, isOpen);
  useLiveAssets(projectId);
  const [filter, setFilter] = useState<AssetFilter>({
    search: '',
    type: isImagesOnly ? 'images' : 'all',
    folderId: null,
  });
  const [chosen, setChosen] = useState<AssetJson[]>([]);
  const shown = useMemo(() => filterAssets(assets.data ?? [], filter), [assets.data, filter]);
  const chosenIds = useMemo(() => new Set(chosen.map((a) => a.id)), [chosen]);

  const close = () => {
    setChosen([]);
    onClose();
  };
  const choose = (asset: AssetJson) => {
    if (!isMultiple) {
      setChosen([]);
      onPick([asset]);
      return;
    }
    setChosen((list) =>
      list.some((a) => a.id === asset.id) ? list.filter((a) => a.id !== asset.id) : [...list, asset],
    );
  };
  const onUploaded = (asset: AssetJson) => {
    if (isImagesOnly && !isImage(asset)) return;
    if (isMultiple) setChosen((list) => [...list, asset]);
  };

  return (
    <ModalDialog
      isOpen={isOpen}
      onClose={close}
      title={isImagesOnly ? 'Insert images' : 'Insert assets'}
      className="asset-picker"
    >
      <div className="picker-layout">
        <FolderNav
          folders={folders.data ?? []}
          current={filter.folderId}
          onSelect={(folderId) => setFilter({ ...filter, folderId })}
        />
        <div className="picker-main">
          <AssetFilters filter={filter} onChange={setFilter} isImagesOnly={isImagesOnly} />
          <UploadZone
            projectId={projectId}
            folderId={filter.folderId || null}
            onUploaded={onUploaded}
            {...(isImagesOnly ? { accept: 'image/*' } : {})}
          />
          {assets.isPending ? (
            <p role="status">Loading assets…</p>
          ) : assets.isError ? (
            <p role="alert" className="error">
              {errorText(assets.error)}
            </p>
          ) : (
            <AssetGrid
              assets={shown}
              selectedIds={chosenIds}
              onActivate={choose}
              mode={isMultiple ? 'select' : 'open'}
            />
          )}
        </div>
      </div>
      {isMultiple && (
        <footer className="modal-footer">
          <span role="status">{chosen.length === 1 ? '1 asset selected' : `${chosen.length} assets selected`}</span>
          <button
            type="button"
            className="button button-primary"
            disabled={chosen.length === 0}
            onClick={() => {
              const picked = chosen;
              setChosen([]);
              onPick(picked);
            }}
          >
            Insert
          </button>
        </footer>
      )}
    </ModalDialog>
  );
}
