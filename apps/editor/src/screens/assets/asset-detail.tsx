import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { assetsKey, isImage, thumbnailUrl, useLanguages, type AssetJson } from '../../api/assets.ts';
import { updateAsset, uploadFile } from '../../api/upload.ts';
import { formatSize } from '../../ui/asset-grid.tsx';
import { errorText } from '../../ui/error-text.ts';
import { DeleteAsset } from './delete-asset.tsx';

export interface AssetDetailProps {
  readonly projectId: string;
  readonly asset: AssetJson;
  /** False for a person without `manage_content`: the detail reads, nothing changes. */
  readonly canChange: boolean;
  readonly onClose: () => void;
}

type Descriptions = Record<string, string>;

function descriptionsOf(asset: AssetJson): Descriptions {
  return Object.fromEntries(asset.descriptions.map((d) => [d.language.id, d.description ?? '']));
}

/**
 * An asset's detail: its preview, title and a description per active language (saved with
 * PUT /assets/{id}), "Replace" (a new file, then PUT with its file_reference), "Download" and
 * "Delete" (only when unused).
 */
export function AssetDetail({ projectId, asset, canChange, onClose }: AssetDetailProps) {
  const queryClient = useQueryClient();
  const languages = useLanguages(projectId);
  const headingId = useId();
  const replaceInput = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState(asset.title ?? '');
  const [descriptions, setDescriptions] = useState<Descriptions>(() => descriptionsOf(asset));
  const [status, setStatus] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'error'; text: string }>({
    kind: 'idle',
  });
  const [replaceProgress, setReplaceProgress] = useState<number | null>(null);

  // A new asset, or a new version of it, resets the form; a refetch of the same version does not.
  const version = `${asset.id}@${asset.last_modified}`;
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening an asset moves the keyboard to its detail (it sits after the whole list).
  useEffect(() => heading.current?.focus(), [asset.id]);
  useEffect(() => {
    setTitle(asset.title ?? '');
    setDescriptions(descriptionsOf(asset));
  }, [version]);

  const saved = async (next: AssetJson) => {
    queryClient.setQueryData<AssetJson[]>(assetsKey(projectId), (list) =>
      list?.map((a) => (a.id === next.id ? next : a)),
    );
    await queryClient.invalidateQueries({ queryKey: assetsKey(projectId) });
  };

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    setStatus({ kind: 'saving' });
    try {
      const next = await updateAsset(projectId, asset, {
        title: title.trim() === '' ? null : title,
        descriptions: asset.descriptions.map((d) => ({
          language: d.language,
          description: (descriptions[d.language.id] ?? '').trim() === '' ? null : (descriptions[d.language.id] ?? null),
        })),
      });
      await saved(next);
      setStatus({ kind: 'saved' });
    } catch (error) {
      setStatus({ kind: 'error', text: errorText(error) });
    }
  };

  const onReplace = async (file: File | undefined) => {
    if (!file) return;
    setReplaceProgress(0);
    setStatus({ kind: 'idle' });
    try {
      const reference = await uploadFile(projectId, file, setReplaceProgress);
      await saved(await updateAsset(projectId, asset, { file_reference: reference }));
      setStatus({ kind: 'saved' });
    } catch (error) {
      setStatus({ kind: 'error', text: errorText(error) });
    } finally {
      setReplaceProgress(null);
    }
  };

  const languageName = (id: string) => languages.data?.find((l) => l.id === id)?.name ?? id;

  return (
    <section className="asset-detail" aria-labelledby={headingId}>
      <div className="assets-toolbar">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          {asset.title ?? asset.file_name}
        </h2>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      {isImage(asset) && <img src={thumbnailUrl(asset, 480, 320)} alt={asset.title ?? ''} width={240} height={160} />}
      <p className="asset-meta">
        {asset.file_name} · {asset.type} · {formatSize(asset.size)}
        {asset.image_width && asset.image_height ? ` · ${asset.image_width} × ${asset.image_height} px` : ''}
      </p>
      <form onSubmit={(e) => void onSave(e)}>
        <label>
          Title
          <input
            type="text"
            value={title}
            maxLength={500}
            readOnly={!canChange}
            onChange={(e) => setTitle(e.target.value)}
          />
        </label>
        <fieldset>
          <legend>Descriptions</legend>
          {asset.descriptions.map((d) => (
            <label key={d.language.id}>
              {languageName(d.language.id)}
              <textarea
                rows={2}
                readOnly={!canChange}
                value={descriptions[d.language.id] ?? ''}
                onChange={(e) => setDescriptions({ ...descriptions, [d.language.id]: e.target.value })}
              />
            </label>
          ))}
        </fieldset>
        {canChange ? (
          <div className="asset-actions">
            <button type="submit" className="button button-primary" disabled={status.kind === 'saving'}>
              {status.kind === 'saving' ? 'Saving…' : 'Save'}
            </button>
            <span role="status">{status.kind === 'saved' ? 'Saved' : ''}</span>
          </div>
        ) : (
          <p className="asset-meta">Your role can view assets but not change them.</p>
        )}
      </form>
      {status.kind === 'error' && (
        <p role="alert" className="error">
          {status.text}
        </p>
      )}
      <div className="asset-actions">
        {canChange && (
          <>
            <button
              type="button"
              className="button"
              disabled={replaceProgress !== null}
              onClick={() => replaceInput.current?.click()}
            >
              Replace
            </button>
            <input
              ref={replaceInput}
              hidden
              type="file"
              aria-label="Replacement file"
              data-testid="replace-input"
              onChange={(e) => {
                void onReplace(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </>
        )}
        <a className="button" href={asset.url} download={asset.file_name} target="_blank" rel="noopener noreferrer">
          Download
        </a>
        {canChange && <DeleteAsset projectId={projectId} asset={asset} onDeleted={onClose} />}
      </div>
      {replaceProgress !== null && (
        <progress max={100} value={Math.round(replaceProgress * 100)} aria-label={`Replacing ${asset.file_name}`} />
      )}
    </section>
  );
}
