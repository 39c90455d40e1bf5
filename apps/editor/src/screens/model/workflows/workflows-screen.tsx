import { useState } from 'react';
import { mapi, request } from '../../../api/client.ts';
import { useCollections, useContentTypes, useWorkflows, type Workflow } from '../../../api/project-model.ts';
import { errorText } from '../../../ui/error-text.ts';
import { useRoles } from '../settings-kit/model-data.ts';
import { SettingsScreen, useMayChange, useProjectParams, useSave } from '../settings-kit/settings-kit.tsx';
import { WorkflowEditor } from './workflow-editor.tsx';
import { blankDraft, draftOf, type WorkflowDraft } from './workflow-draft.ts';

/*
 * Environment settings → Workflow (`…/model/workflows`): the project's workflows, each with its
 * scope and its steps in their colours, then Published and Archived; "Create new workflow" and
 * "Edit" open the workflow's form, "Delete" removes one (the server refuses the default workflow
 * and one that content is still in).
 */

const zeroId = '00000000-0000-0000-0000-000000000000';

export function WorkflowsScreen() {
  const { projectId } = useProjectParams();
  const workflows = useWorkflows(projectId);
  const types = useContentTypes(projectId);
  const collections = useCollections(projectId);
  const roles = useRoles(projectId);
  const mayChange = useMayChange(projectId, 'manage_model');
  const remove = useSave(projectId);
  const [editing, setEditing] = useState<WorkflowDraft | null>(null);
  const typeName = (id: string) => types.data?.find((t) => t.id === id)?.name ?? id;
  const collectionName = (id: string) => collections.data?.find((c) => c.id === id)?.name ?? id;

  const scopeText = (w: Workflow) =>
    w.id === zeroId && w.scopes.length === 0
      ? 'Everything no other workflow covers'
      : w.scopes
          .map((s) => {
            const t = s.content_types.length
              ? s.content_types.map((x) => typeName(x.id)).join(', ')
              : 'all content types';
            const c = s.collections.length
              ? s.collections.map((x) => collectionName(x.id)).join(', ')
              : 'all collections';
            return `${t} in ${c}`;
          })
          .join('; ') || 'No scope';

  if (editing) {
    return (
      <SettingsScreen
        title={editing.id ? `Workflow ${editing.name}` : 'New workflow'}
        mayChange={mayChange}
        intro="Steps content moves through before it is published."
      >
        <WorkflowEditor
          projectId={projectId}
          initial={editing}
          types={types.data ?? []}
          collections={collections.data ?? []}
          roles={roles.data ?? []}
          mayChange={mayChange}
          onDone={() => setEditing(null)}
        />
      </SettingsScreen>
    );
  }
  return (
    <SettingsScreen
      title="Workflows"
      mayChange={mayChange}
      intro="Steps content moves through before it is published, per content type and collection."
    >
      {workflows.isPending && <p role="status">Loading…</p>}
      {remove.error !== null && (
        <p className="field-problem" role="alert">
          {errorText(remove.error)}
        </p>
      )}
      {mayChange && (
        <button type="button" className="button button-primary" onClick={() => setEditing(blankDraft())}>
          Create new workflow
        </button>
      )}
      <ul className="settings-list" aria-label="Workflows">
        {(workflows.data ?? []).map((w) => (
          <li key={w.id} className="settings-row workflow-row">
            <div className="settings-row-title">
              <h2 className="workflow-name">{w.name}</h2>
              <p className="hint">{scopeText(w)}</p>
              <ol className="step-line" aria-label={`Steps of ${w.name}`}>
                {w.steps.map((s) => (
                  <li key={s.id}>
                    <span className="step-swatch" data-color={s.color} aria-hidden="true" /> {s.name}
                  </li>
                ))}
                <li>
                  <span className="step-swatch" data-color="published" aria-hidden="true" /> Published
                </li>
                <li>
                  <span className="step-swatch" data-color="archived" aria-hidden="true" /> Archived
                </li>
              </ol>
            </div>
            <div className="settings-actions">
              <button
                type="button"
                className="button"
                aria-label={`${mayChange ? 'Edit' : 'View'} ${w.name}`}
                onClick={() => setEditing(draftOf(w))}
              >
                {mayChange ? 'Edit' : 'View'}
              </button>
              {mayChange && w.id !== zeroId && (
                <button
                  type="button"
                  className="button button-danger"
                  aria-label={`Delete ${w.name}`}
                  onClick={() =>
                    void remove.run(() => request(mapi(projectId, `/workflows/${w.id}`), { method: 'DELETE' }))
                  }
                >
                  Delete
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </SettingsScreen>
  );
}
