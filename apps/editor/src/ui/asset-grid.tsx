import { isImage, thumbnailUrl, type AssetJson, type AssetFilter, type FolderJson } from '../api/assets.ts';
import '../styles/assets.css';

/** "12.3 kB": a file size for people. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export interface AssetGridProps {
  readonly assets: readonly AssetJson[];
  /** Shown as pressed (a picker's choice, the library's open asset). */
  readonly selectedIds: ReadonlySet<string>;
  readonly onActivate: (asset: AssetJson) => void;
  /** 'select': tiles are toggle buttons (aria-pressed); 'open': tiles open the asset. */
  readonly mode: 'select' | 'open';
  readonly view?: 'grid' | 'list';
}

/** The assets as tiles: a cropped thumbnail for images, the file type otherwise, title and size. */
export function AssetGrid({ assets, selectedIds, onActivate, mode, view = 'grid' }: AssetGridProps) {
  if (assets.length === 0) return <p className="empty">No assets match.</p>;
  return (
    <ul className={view === 'grid' ? 'asset-grid' : 'asset-list'}>
      {assets.map((asset) => {
        const name = asset.title ?? asset.file_name;
        const isSelected = selectedIds.has(asset.id);
        return (
          <li key={asset.id}>
            <button
              type="button"
              className={isSelected ? 'asset-tile is-selected' : 'asset-tile'}
              {...(mode === 'select' ? { 'aria-pressed': isSelected } : {})}
              {...(mode === 'open' && isSelected ? { 'aria-current': true } : {})}
              onClick={() => onActivate(asset)}
            >
              {isImage(asset) ? (
                <img src={thumbnailUrl(asset, 240, 160)} alt="" width={120} height={80} loading="lazy" />
              ) : (
                <span className="asset-type" aria-hidden="true">
                  {asset.file_name.split('.').pop()?.toUpperCase() ?? 'FILE'}
                </span>
              )}
              <span className="asset-name">{name}</span>
              <span className="asset-meta">
                {asset.title ? `${asset.file_name} · ` : ''}
                {formatSize(asset.size)}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export interface AssetFiltersProps {
  readonly filter: AssetFilter;
  readonly onChange: (next: AssetFilter) => void;
  readonly isImagesOnly?: boolean;
}

/** Search by title or file name, and the type filter (images / other files). */
export function AssetFilters({ filter, onChange, isImagesOnly = false }: AssetFiltersProps) {
  return (
    <div className="asset-filters" role="search">
      <label>
        Search assets
        <input
          type="search"
          value={filter.search}
          placeholder="Title or file name"
          onChange={(e) => onChange({ ...filter, search: e.target.value })}
        />
      </label>
      {!isImagesOnly && (
        <label>
          Type
          <select
            value={filter.type}
            onChange={(e) => onChange({ ...filter, type: e.target.value as AssetFilter['type'] })}
          >
            <option value="all">All files</option>
            <option value="images">Images</option>
            <option value="other">Other files</option>
          </select>
        </label>
      )}
    </div>
  );
}

export interface FolderNavProps {
  readonly folders: readonly FolderJson[];
  /** null: all assets; '': the root; else a folder id. */
  readonly current: string | null;
  readonly onSelect: (folderId: string | null) => void;
}

/** The folder tree as a nested list of buttons; the current one is marked. */
export function FolderNav({ folders, current, onSelect }: FolderNavProps) {
  const item = (id: string | null, label: string, children?: readonly FolderJson[]) => (
    <li key={id ?? '*'}>
      <button
        type="button"
        className="folder-button"
        {...(current === id ? { 'aria-current': 'true' as const } : {})}
        onClick={() => onSelect(id)}
      >
        {label}
      </button>
      {children && children.length > 0 && <ul>{children.map((f) => item(f.id, f.name, f.folders))}</ul>}
    </li>
  );
  return (
    <nav className="folder-nav" aria-label="Asset folders">
      <ul>
        {item(null, 'All assets')}
        {item('', 'Root folder', folders)}
      </ul>
    </nav>
  );
}
