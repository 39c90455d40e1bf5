import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, api, mapi } from '../../api/client.ts';
import type { Collection, ContentType } from '../../api/project-model.ts';
import type { Item } from './inventory-data.ts';

/**
 * "Create new": the person picks a content type (and a collection when the project has several)
 * and names the item; it is created (`POST /items`) with its variant in the current language
 * (`PUT …/variants/{language}`, empty) — the same routes as the Management API — and then opens.
 */
export function CreateItemDialog(props: {
  projectId: string;
  languageId: string;
  types: readonly ContentType[];
  collections: readonly Collection[];
  isOpen: boolean;
  onClose(): void;
  onCreated(itemId: string): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.isOpen && !element.open) element.showModal();
    if (!props.isOpen && element.open) element.close();
  }, [props.isOpen]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const collection = String(form.get('collection') ?? '');
    setBusy(true);
    setProblem(null);
    try {
      const item = await api<Item>(mapi(props.projectId, '/items'), {
        method: 'POST',
        body: {
          name: String(form.get('name') ?? '').trim(),
          type: { id: String(form.get('type') ?? '') },
          ...(collection ? { collection: { id: collection } } : {}),
        },
      });
      await api(mapi(props.projectId, `/items/${item.id}/variants/${props.languageId}`), {
        method: 'PUT',
        body: { elements: [] },
      });
      void queryClient.invalidateQueries({ queryKey: ['inventory', props.projectId] });
      props.onCreated(item.id);
    } catch (error) {
      const details =
        error instanceof ApiError ? (error.body.validation_errors ?? []).map((v) => v.message).join(' ') : '';
      setProblem([error instanceof Error ? error.message : 'The item was not created.', details].join(' ').trim());
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={dialog} className="create-dialog" aria-labelledby="create-heading" onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <h2 id="create-heading">Create new content item</h2>
        <p className="field">
          <label htmlFor="create-type">Content type</label>
          <select id="create-type" name="type" required defaultValue="">
            <option value="" disabled>
              Choose a content type
            </option>
            {props.types.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </p>
        {props.collections.length > 1 && (
          <p className="field">
            <label htmlFor="create-collection">Collection</label>
            <select id="create-collection" name="collection" defaultValue={props.collections[0]?.id}>
              {props.collections.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </p>
        )}
        <p className="field">
          <label htmlFor="create-name">Name</label>
          <input id="create-name" name="name" required maxLength={200} autoComplete="off" />
        </p>
        {problem && (
          <p className="form-problem" role="alert">
            {problem}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={isBusy}>
            {isBusy ? 'Creating…' : 'Create'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
