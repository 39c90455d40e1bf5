import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { assetsKey, type AssetJson } from '../api/assets.ts';
import { createAsset, uploadFile } from '../api/upload.ts';
import { errorText } from './error-text.ts';
import '../styles/assets.css';

interface Upload {
  readonly key: number;
  readonly name: string;
  readonly fraction: number;
  readonly state: 'uploading' | 'done' | 'failed';
  readonly error?: string;
}

export interface UploadZoneProps {
  readonly projectId: string;
  /** The folder new assets go into (null: the root). */
  readonly folderId: string | null;
  readonly onUploaded?: (asset: AssetJson) => void;
  /** Restricts the file input (e.g. "image/*" in a picker of images). */
  readonly accept?: string;
}

let nextKey = 1;

/**
 * "Upload assets": a file input (the keyboard way) and a drop area; each file is sent with its own
 * progress bar, then becomes an asset in the current folder. Errors are shown in the API's words.
 */
export function UploadZone({ projectId, folderId, onUploaded, accept }: UploadZoneProps) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [isOver, setIsOver] = useState(false);

  const patch = (key: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  const start = (files: readonly File[]) => {
    for (const file of files) {
      const key = nextKey++;
      setUploads((list) => [...list, { key, name: file.name, fraction: 0, state: 'uploading' }]);
      void (async () => {
        try {
          const reference = await uploadFile(projectId, file, (fraction) => patch(key, { fraction }));
          const asset = await createAsset(projectId, reference, folderId);
          patch(key, { state: 'done', fraction: 1 });
          await queryClient.invalidateQueries({ queryKey: assetsKey(projectId) });
          onUploaded?.(asset);
        } catch (error) {
          patch(key, { state: 'failed', error: errorText(error) });
        }
      })();
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setIsOver(false);
    start([...e.dataTransfer.files]);
  };

  return (
    <section className="upload-zone" aria-label="Upload assets">
      <div
        className={isOver ? 'upload-drop is-over' : 'upload-drop'}
        onDragOver={(e) => {
          e.preventDefault();
          setIsOver(true);
        }}
        onDragLeave={() => setIsOver(false)}
        onDrop={onDrop}
        data-testid="upload-drop"
      >
        <button type="button" className="button button-primary" onClick={() => input.current?.click()}>
          Upload assets
        </button>
        <input
          ref={input}
          hidden
          aria-label="Files to upload"
          data-testid="upload-input"
          type="file"
          multiple
          {...(accept ? { accept } : {})}
          onChange={(e) => {
            start([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <span className="upload-hint">or drop files here</span>
      </div>
      {uploads.length > 0 && (
        <ul className="upload-list" aria-live="polite">
          {uploads.map((u) => (
            <li key={u.key}>
              <span className="upload-name">{u.name}</span>
              <progress max={100} value={Math.round(u.fraction * 100)} aria-label={`Upload of ${u.name}`} />
              <span>
                {u.state === 'uploading' ? `${Math.round(u.fraction * 100)} %` : u.state === 'done' ? 'Uploaded' : ''}
              </span>
              {u.state === 'failed' && (
                <span role="alert" className="error">
                  {u.error}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
