/**
 * Uploads: `POST /files/{name}` with the raw bytes through XMLHttpRequest (fetch reports no upload
 * progress), then the asset is created or changed with the returned file_reference.
 */
import { ApiError, api, csrfTokenOf, mapi, type ApiErrorBody } from './client.ts';
import type { AssetJson } from './assets.ts';

export interface FileReference {
  readonly id: string;
  readonly type: 'internal';
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Sends one file's bytes; `onProgress` gets the fraction sent (0…1). Rejects with `ApiError`. */
export function uploadFile(
  projectId: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<FileReference> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/app/api${mapi(projectId, `/files/${encodeURIComponent(file.name)}`)}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    const token = csrfTokenOf();
    if (token) xhr.setRequestHeader('x-csrf-token', token);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener('load', () => {
      const json = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(json as FileReference);
        return;
      }
      const body =
        json && typeof json === 'object' && 'message' in json
          ? (json as ApiErrorBody)
          : { message: `The server answered ${xhr.status}.` };
      reject(new ApiError(xhr.status, body));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, { message: 'The upload failed: no answer.' })));
    xhr.addEventListener('abort', () => reject(new ApiError(0, { message: 'The upload was cancelled.' })));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}

/** `POST /assets`: a new asset of the uploaded file, in `folderId` (null: the root). */
export function createAsset(projectId: string, reference: FileReference, folderId: string | null): Promise<AssetJson> {
  return api<AssetJson>(mapi(projectId, '/assets'), {
    method: 'POST',
    body: { file_reference: reference, ...(folderId ? { folder: { id: folderId } } : {}) },
  });
}

/** The fields of an asset the editor changes; the rest is sent back as the server has it. */
export interface AssetChanges {
  readonly title?: string | null;
  readonly descriptions?: AssetJson['descriptions'];
  readonly file_reference?: FileReference;
  readonly folderId?: string | null;
}

/** `PUT /assets/{id}` with the asset's current file, title, descriptions and folder, changed by `changes`. */
export function updateAsset(projectId: string, asset: AssetJson, changes: AssetChanges): Promise<AssetJson> {
  const folderId = changes.folderId !== undefined ? changes.folderId : (asset.folder?.id ?? null);
  return api<AssetJson>(mapi(projectId, `/assets/${asset.id}`), {
    method: 'PUT',
    body: {
      file_reference: changes.file_reference ?? asset.file_reference,
      title: changes.title !== undefined ? changes.title : asset.title,
      descriptions: (changes.descriptions ?? asset.descriptions).map((d) => ({
        language: { id: d.language.id },
        description: d.description,
      })),
      // The MAPI's root folder is the zero id.
      folder: { id: folderId ?? '00000000-0000-0000-0000-000000000000' },
    },
  });
}

export function deleteAsset(projectId: string, assetId: string): Promise<null> {
  return api<null>(mapi(projectId, `/assets/${assetId}`), { method: 'DELETE' });
}
