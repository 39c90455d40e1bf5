import { useState } from 'react';
import { moved, refIds, type Limit } from './model.ts';
import type { ElementProps } from './element-props.ts';
import { useFormScope } from './element-props.ts';
import { AssetPicker } from '../ui/asset-picker.tsx';
import { useAsset, type AssetJson } from './queries.ts';
import { ListEntryActions, type ListEntryProps } from './list-entry-actions.tsx';

/** What a type's asset element allows, against one asset: messages for what it breaks. */
export function assetProblems(element: ElementProps['element'], asset: AssetJson): string[] {
  const out: string[] = [];
  const maxSize = element['maximum_file_size'];
  if (typeof maxSize === 'number' && asset.size > maxSize) out.push(`The file is larger than ${maxSize} bytes.`);
  const isImage = asset.image_width !== null && asset.image_height !== null;
  if (element['allowed_file_types'] === 'adjustable' && !isImage) out.push('Only images are allowed.');
  const check = (limit: unknown, size: number | null, what: string) => {
    const l = limit as Limit | null | undefined;
    if (!l || size === null) return;
    const ok =
      l.condition === 'at_most' ? size <= l.value : l.condition === 'at_least' ? size >= l.value : size === l.value;
    if (!ok) out.push(`The image ${what} must be ${l.condition.replace('_', ' ')} ${l.value} px.`);
  };
  check(element['image_width_limit'], asset.image_width, 'width');
  check(element['image_height_limit'], asset.image_height, 'height');
  return out;
}

function AssetRow(props: ListEntryProps & { assetId: string; element: ElementProps['element'] }) {
  const { projectId } = useFormScope();
  const asset = useAsset(projectId, props.assetId);
  const name = asset.data ? asset.data.title || asset.data.file_name : asset.isError ? 'Missing asset' : 'Loading…';
  const problems = asset.data ? assetProblems(props.element, asset.data) : [];
  return (
    <li className="element-list-row">
      {asset.data && asset.data.image_width !== null ? (
        <img className="thumb" src={`${asset.data.url}?w=96&h=96&fit=clip`} alt="" width={48} height={48} />
      ) : (
        <span className="thumb thumb-file" aria-hidden="true">
          {asset.data?.file_name.split('.').pop() ?? ''}
        </span>
      )}
      <span className="element-list-name">{name}</span>
      {problems.map((p) => (
        <span key={p} className="element-error">
          {p}
        </span>
      ))}
      <ListEntryActions {...props} name={name} />
    </li>
  );
}

/**
 * An asset element: the chosen assets with thumbnails, in order; add (through the asset chooser),
 * remove, reorder. Entries keep the properties the API gave them (renditions), so an unchanged
 * value saves as it was loaded.
 */
export function AssetElement({ element, value, onChange, isReadOnly, inputId, labelId, describedBy }: ElementProps) {
  const { projectId } = useFormScope();
  const [isPicking, setPicking] = useState(false);
  const entries = (Array.isArray(value.value) ? value.value : []) as { id: string }[];
  const ids = refIds(entries);
  const limit = element['asset_count_limit'] as Limit | null | undefined;
  const isFull = limit && limit.condition !== 'at_least' ? ids.length >= limit.value : false;
  return (
    <div role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="element-assets">
      {ids.length === 0 ? <p className="element-note">No assets.</p> : null}
      <ul className="element-list">
        {ids.map((id, i) => (
          <AssetRow
            key={id}
            assetId={id}
            index={i}
            count={ids.length}
            element={element}
            isReadOnly={isReadOnly}
            onMove={(by) => onChange({ ...value, value: moved(entries, i, by) })}
            onRemove={() => onChange({ ...value, value: entries.filter((_, j) => j !== i) })}
          />
        ))}
      </ul>
      {isReadOnly ? null : (
        <button id={inputId} type="button" disabled={isFull} onClick={() => setPicking(true)}>
          Insert assets
        </button>
      )}
      <AssetPicker
        projectId={projectId}
        isOpen={isPicking}
        isMultiple
        isImagesOnly={element['allowed_file_types'] === 'adjustable'}
        onClose={() => setPicking(false)}
        onPick={(picked) => {
          const added = picked.filter((a) => !ids.includes(a.id)).map((a) => ({ id: a.id }));
          onChange({ ...value, value: [...entries, ...added] });
          setPicking(false);
        }}
      />
    </div>
  );
}
