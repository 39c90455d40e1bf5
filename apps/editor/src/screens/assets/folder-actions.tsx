import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { foldersKey, type FolderJson } from '../../api/assets.ts';
import { api, mapi } from '../../api/client.ts';
import { errorText } from '../../ui/error-text.ts';

/** The folder with this id anywhere in the tree. */
export function findFolder(folders: readonly FolderJson[], id: string): FolderJson | undefined {
  for (const f of folders) {
    if (f.id === id) return f;
    const inner = findFolder(f.folders, id);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * "New folder" (inside the current folder, or at the top) and "Rename folder", through
 * PATCH /folders (addInto, rename), as the MAPI takes them.
 */
export function FolderActions({
  projectId,
  folders,
  current,
  onCreated,
}: {
  projectId: string;
  folders: readonly FolderJson[];
  current: string | null;
  onCreated: (folderId: string) => void;
}) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'idle' | 'create' | 'rename'>('idle');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const folder = current ? findFolder(folders, current) : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const operation =
      mode === 'create'
        ? { op: 'addInto', value: { name }, ...(folder ? { reference: { id: folder.id } } : {}) }
        : { op: 'rename', reference: { id: folder?.id }, value: name };
    try {
      const tree = await api<{ folders: FolderJson[] }>(mapi(projectId, '/folders'), {
        method: 'PATCH',
        body: [operation],
      });
      queryClient.setQueryData(foldersKey(projectId), tree.folders);
      if (mode === 'create') {
        const parent = folder ? findFolder(tree.folders, folder.id)?.folders : tree.folders;
        const created = parent?.find((f) => f.name === name && !findFolder(folders, f.id));
        if (created) onCreated(created.id);
      }
      setMode('idle');
    } catch (err) {
      setError(errorText(err));
    }
  };

  const open = (next: 'create' | 'rename') => {
    setMode(next);
    setName(next === 'rename' ? (folder?.name ?? '') : '');
    setError(null);
  };

  return (
    <div className="folder-form">
      {mode === 'idle' ? (
        <div className="asset-actions">
          <button type="button" className="button" onClick={() => open('create')}>
            New folder
          </button>
          {folder && (
            <button type="button" className="button" onClick={() => open('rename')}>
              Rename folder
            </button>
          )}
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <label>
            {mode === 'create'
              ? folder
                ? `New folder in ${folder.name}`
                : 'New folder'
              : `Rename ${folder?.name ?? ''}`}
            <input
              type="text"
              required
              maxLength={250}
              value={name}
              autoFocus
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <div className="asset-actions">
            <button type="submit" className="button button-primary">
              {mode === 'create' ? 'Create' : 'Rename'}
            </button>
            <button type="button" className="button" onClick={() => setMode('idle')}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
