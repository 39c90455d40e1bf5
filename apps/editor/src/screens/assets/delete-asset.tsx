import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { assetsKey, type AssetJson } from '../../api/assets.ts';
import { deleteAsset } from '../../api/upload.ts';
import { errorText } from '../../ui/error-text.ts';
import { findAssetUses, itemName } from './asset-usage.ts';

type State =
  | { readonly kind: 'idle' }
  | { readonly kind: 'checking'; readonly checked: number }
  | { readonly kind: 'used'; readonly uses: readonly { name: string; typeName: string }[] }
  | { readonly kind: 'confirm' }
  | { readonly kind: 'deleting' }
  | { readonly kind: 'error'; readonly text: string };

/**
 * "Delete": first looks for the asset's uses (see asset-usage.ts); a used asset is not deleted and
 * its uses are listed; an unused one is deleted after a confirmation.
 */
export function DeleteAsset({
  projectId,
  asset,
  onDeleted,
}: {
  projectId: string;
  asset: AssetJson;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const name = asset.title ?? asset.file_name;

  const check = async () => {
    abort.current = new AbortController();
    setState({ kind: 'checking', checked: 0 });
    try {
      const uses = await findAssetUses(projectId, asset.id, {
        signal: abort.current.signal,
        onProgress: (checked) => setState({ kind: 'checking', checked }),
      });
      if (uses.length === 0) return setState({ kind: 'confirm' });
      const named = await Promise.all(
        uses.map(async (u) => ({ name: await itemName(projectId, u.itemId), typeName: u.typeName })),
      );
      setState({ kind: 'used', uses: named });
    } catch (error) {
      if (abort.current.signal.aborted) setState({ kind: 'idle' });
      else setState({ kind: 'error', text: errorText(error) });
    }
  };

  const remove = async () => {
    setState({ kind: 'deleting' });
    try {
      await deleteAsset(projectId, asset.id);
      queryClient.setQueryData<AssetJson[]>(assetsKey(projectId), (list) => list?.filter((a) => a.id !== asset.id));
      await queryClient.invalidateQueries({ queryKey: assetsKey(projectId) });
      onDeleted();
    } catch (error) {
      setState({ kind: 'error', text: errorText(error) });
    }
  };

  return (
    <div className="delete-asset">
      {(state.kind === 'idle' || state.kind === 'error') && (
        <button type="button" className="button button-danger" onClick={() => void check()}>
          Delete
        </button>
      )}
      {state.kind === 'checking' && (
        <p role="status">
          Checking where the asset is used… ({state.checked} variants checked){' '}
          <button type="button" className="button" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        </p>
      )}
      {state.kind === 'used' && (
        <div role="alert">
          <p>The asset is used in content items and cannot be deleted. Remove it from these first:</p>
          <ul>
            {state.uses.map((u, i) => (
              <li key={i}>
                {u.name} ({u.typeName})
              </li>
            ))}
          </ul>
          <button type="button" className="button" onClick={() => setState({ kind: 'idle' })}>
            OK
          </button>
        </div>
      )}
      {state.kind === 'confirm' && (
        <div role="alertdialog" aria-label="Delete asset" className="confirm">
          <p>Delete “{name}”? The asset is not used in any content item. This cannot be undone.</p>
          <button type="button" className="button button-danger" autoFocus onClick={() => void remove()}>
            Delete asset
          </button>{' '}
          <button type="button" className="button" onClick={() => setState({ kind: 'idle' })}>
            Cancel
          </button>
        </div>
      )}
      {state.kind === 'deleting' && <p role="status">Deleting…</p>}
      {state.kind === 'error' && (
        <p role="alert" className="error">
          {state.text}
        </p>
      )}
    </div>
  );
}
