import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { useSession } from '../../../api/session.ts';
import { errorText } from '../../../ui/error-text.ts';
import { ModalDialog } from '../../../ui/modal-dialog.tsx';
import { ModelLayout, modelPath } from '../model-nav.tsx';
import { canManageModel, deleteDefinition, refreshModel, useDefinitions } from './definition-api.ts';
import type { DefinitionJson, DefinitionKind } from './definition-draft.ts';

const labels = {
  types: { title: 'Content types', one: 'content type', create: 'Create new' },
  snippets: { title: 'Content type snippets', one: 'content type snippet', create: 'Create new' },
} as const;

/**
 * "Content types" and "Content type snippets" (`…/model/types`, `…/model/snippets`): every one
 * with its codename, element count and last change; "Create new" and each name open the editor;
 * "Delete" asks first and shows the server's refusal (a type still used by items) as it is.
 */
export function DefinitionsScreen({ kind }: { kind: DefinitionKind }) {
  const { projectId = '', language = '' } = useParams<{ projectId: string; language: string }>();
  const session = useSession();
  const queryClient = useQueryClient();
  const list = useDefinitions(projectId, kind);
  const canEdit = canManageModel(session.data, projectId);
  const [deleting, setDeleting] = useState<DefinitionJson | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const label = labels[kind];

  const remove = async (definition: DefinitionJson) => {
    setError('');
    try {
      await deleteDefinition(projectId, kind, definition.id);
      setStatus(`Deleted ${label.one} ${definition.name}.`);
      setDeleting(null);
      await refreshModel(queryClient, projectId);
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <ModelLayout
      title={label.title}
      actions={
        canEdit ? (
          <Link className="button button-primary" href={modelPath(projectId, language, kind, '/new')}>
            {label.create}
          </Link>
        ) : (
          <p>Read-only: your role may not change the content model.</p>
        )
      }
    >
      <p className="model-status" role="status">
        {status}
      </p>
      {list.isPending && <p>Loading…</p>}
      {list.isError && <p role="alert">{errorText(list.error)}</p>}
      {list.data && list.data.length === 0 && <p>No {label.one}s yet.</p>}
      {list.data && list.data.length > 0 && (
        <table className="model-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Codename</th>
              <th scope="col">Elements</th>
              <th scope="col">Last modified</th>
              {canEdit && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {list.data.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link href={modelPath(projectId, language, kind, `/${d.id}`)}>{d.name}</Link>
                </td>
                <td>
                  <code>{d.codename}</code>
                </td>
                <td>{d.elements.length}</td>
                <td>{d.last_modified ? new Date(d.last_modified).toLocaleString() : ''}</td>
                {canEdit && (
                  <td>
                    <button
                      type="button"
                      className="button"
                      aria-label={`Delete ${d.name}`}
                      onClick={() => {
                        setError('');
                        setDeleting(d);
                      }}
                    >
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ModalDialog isOpen={deleting !== null} onClose={() => setDeleting(null)} title={`Delete ${label.one}?`}>
        <p>
          Delete <strong>{deleting?.name}</strong>? This cannot be undone.
        </p>
        {error && <p role="alert">{error}</p>}
        <div className="model-actions">
          <button type="button" className="button" onClick={() => setDeleting(null)}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            data-autofocus
            onClick={() => deleting && void remove(deleting)}
          >
            Delete
          </button>
        </div>
      </ModalDialog>
    </ModelLayout>
  );
}
