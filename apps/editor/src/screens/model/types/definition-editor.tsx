import { useRef, useState, type DragEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useParams } from 'wouter';
import { useSession } from '../../../api/session.ts';
import { errorText } from '../../../ui/error-text.ts';
import { ModelLayout, modelPath } from '../model-nav.tsx';
import {
  canManageModel,
  checkImpact,
  createDefinition,
  patchDefinition,
  refreshModel,
  useDefinition,
  useDefinitions,
  useTaxonomies,
  type Impact,
} from './definition-api.ts';
import {
  createBody,
  definitionPatch,
  draftOf,
  emptyDraft,
  type DefinitionJson,
  type DefinitionKind,
  type Draft,
  type Patch,
} from './definition-draft.ts';
import { ElementCard } from './element-card.tsx';
import { AddElement, DefinitionFields, GroupsSection } from './editor-sections.tsx';
import { ImpactDialog } from './impact-dialog.tsx';
import { definitionKey, problemsOf, type ProblemMap } from './server-problems.ts';
import { useDraft } from './use-draft.ts';

/**
 * The content type (or snippet) editor: `…/model/types/new` and `…/model/types/{id}` (and the
 * same under `snippets`). Loads the saved definition, edits a draft of it, and saves through the
 * Management API: POST for a new one, else the PATCH operations of the changes, after the impact
 * check (a confirmation when existing content would break). The server's refusals show next to
 * the element or group they concern. Read-only without "manage content model".
 */
export function DefinitionEditorScreen({ kind }: { kind: DefinitionKind }) {
  const {
    projectId = '',
    language = '',
    id = 'new',
  } = useParams<{ projectId: string; language: string; id: string }>();
  const isNew = id === 'new';
  const saved = useDefinition(projectId, kind, isNew ? null : id);
  const title = kind === 'types' ? 'content type' : 'content type snippet';
  if (!isNew && !saved.data) {
    return (
      <ModelLayout title={saved.isError ? `The ${title} could not be loaded` : `Loading the ${title}…`}>
        {saved.isError && <p role="alert">{errorText(saved.error)}</p>}
      </ModelLayout>
    );
  }
  return (
    <Editor
      key={saved.data?.id ?? 'new'}
      kind={kind}
      saved={saved.data ?? null}
      projectId={projectId}
      language={language}
    />
  );
}

/**
 * What the last save said, kept across the remount when a new definition's page becomes its own
 * (`…/new` → `…/{id}`), so the status stays in view and is announced once.
 */
let lastSaved: { id: string; message: string } | null = null;

function Editor({
  kind,
  saved: savedJson,
  projectId,
  language,
}: {
  kind: DefinitionKind;
  saved: DefinitionJson | null;
  projectId: string;
  language: string;
}) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const session = useSession();
  const isReadOnly = !canManageModel(session.data, projectId);
  const [saved, setSaved] = useState<Draft | null>(savedJson ? draftOf(savedJson, kind) : null);
  const [savedId, setSavedId] = useState(savedJson?.id ?? null);
  const editing = useDraft(saved ?? emptyDraft(kind));
  const { draft } = editing;
  const types = useDefinitions(projectId, 'types');
  const snippets = useDefinitions(projectId, 'snippets');
  const taxonomies = useTaxonomies(projectId);
  const [problems, setProblems] = useState<ProblemMap>(new Map());
  const [status, setStatus] = useState(lastSaved && lastSaved.id === savedJson?.id ? lastSaved.message : '');
  const [isBusy, setBusy] = useState(false);
  const [pending, setPending] = useState<{ patch: Patch; impact: Impact } | null>(null);
  const [drag, setDrag] = useState<{ dragging: string | null; over: string | null }>({ dragging: null, over: null });
  const label = kind === 'types' ? 'content type' : 'content type snippet';

  const done = (answer: DefinitionJson) => {
    const next = draftOf(answer, kind);
    setSaved(next);
    editing.reset(next);
    setProblems(new Map());
    const message = `The ${label} ${answer.name} is saved.`;
    setStatus(message);
    lastSaved = { id: answer.id, message };
    queryClient.setQueryData(['model', projectId, kind, 'one', answer.id], answer);
    // The new definition's own address at once (before the lists refetch), so a person who goes
    // on elsewhere is not brought back.
    if (!savedId) {
      setSavedId(answer.id);
      navigate(modelPath(projectId, language, kind, `/${answer.id}`), { replace: true });
    }
    void refreshModel(queryClient, projectId);
  };
  const refused = (error: unknown, targets: Patch['targets'] | null) => {
    const found = problemsOf(error, draft, targets);
    setProblems(found ?? new Map([[definitionKey, [errorText(error)]]]));
    setStatus(`The ${label} was not saved: fix the problems shown.`);
  };
  const patch = async (p: Patch) => {
    if (!savedId) return;
    try {
      done(await patchDefinition(projectId, kind, savedId, p.operations));
    } catch (error) {
      refused(error, p.targets);
    }
  };
  const save = async () => {
    setBusy(true);
    setStatus('Saving…');
    try {
      if (!saved || !savedId) {
        try {
          done(await createDefinition(projectId, kind, createBody(draft)));
        } catch (error) {
          refused(error, null);
        }
        return;
      }
      const p = definitionPatch(saved, draft);
      if (p.operations.length === 0) {
        setStatus('There are no changes to save.');
        return;
      }
      let impact: Impact;
      try {
        impact = await checkImpact(projectId, kind, savedId, p.operations);
      } catch (error) {
        refused(error, p.targets);
        return;
      }
      if (impact.changes.length > 0) {
        setStatus('');
        setPending({ patch: p, impact });
        return;
      }
      await patch(p);
    } finally {
      setBusy(false);
    }
  };
  // The dragged element's key in a ref: `dragover` must be accepted before React re-renders.
  const dragging = useRef<string | null>(null);
  const onDrag = (event: 'start' | 'over' | 'drop' | 'end', key: string, e: DragEvent) => {
    if (event === 'start') {
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', key);
      dragging.current = key;
      setDrag({ dragging: key, over: null });
    } else if (event === 'over' && dragging.current) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      if (drag.over !== key) setDrag({ dragging: dragging.current, over: key });
    } else if (event === 'drop' && dragging.current) {
      e.preventDefault();
      editing.moveElement(
        dragging.current,
        draft.elements.findIndex((x) => x.key === key),
      );
      dragging.current = null;
      setDrag({ dragging: null, over: null });
    } else if (event === 'end') {
      dragging.current = null;
      setDrag({ dragging: null, over: null });
    }
  };
  const context = {
    types: types.data ?? [],
    snippets: snippets.data ?? [],
    taxonomies: taxonomies.data ?? [],
    elements: draft.elements,
  };
  const heading = saved ? saved.name : `New ${label}`;

  return (
    <ModelLayout
      title={heading}
      actions={
        isReadOnly ? (
          <p>Read-only: your role may not change the content model.</p>
        ) : (
          <button type="button" className="button button-primary" disabled={isBusy} onClick={() => void save()}>
            Save changes
          </button>
        )
      }
    >
      <div className="type-editor">
        <p className="model-status" role="status">
          {status} {editing.announcement}
        </p>
        {(problems.get(definitionKey) ?? []).length > 0 && (
          <ul className="model-errors" aria-label={`Problems of the ${label}`}>
            {(problems.get(definitionKey) ?? []).map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <DefinitionFields draft={draft} isReadOnly={isReadOnly} setField={editing.setField} />
        {draft.groups && (
          <GroupsSection groups={draft.groups} isReadOnly={isReadOnly} problems={problems} editing={editing} />
        )}
        <section className="type-elements" aria-labelledby="type-elements-title">
          <h2 id="type-elements-title">Elements</h2>
          {draft.elements.length === 0 && <p>No elements yet.</p>}
          <ol className="element-list">
            {draft.elements.map((entry, index) => (
              <ElementCard
                key={entry.key}
                entry={entry}
                index={index}
                count={draft.elements.length}
                context={context}
                groups={draft.groups}
                problems={problems.get(entry.key) ?? []}
                isReadOnly={isReadOnly}
                drag={drag}
                onChange={editing.changeElement}
                onMove={editing.moveElement}
                onRemove={editing.removeElement}
                onDrag={onDrag}
              />
            ))}
          </ol>
          {!isReadOnly && <AddElement kind={kind} onAdd={editing.addElement} />}
        </section>
      </div>
      <ImpactDialog
        impact={pending?.impact ?? null}
        itemHref={(itemId) => `/p/${projectId}/${language}/items/${itemId}`}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          const p = pending?.patch;
          setPending(null);
          if (p) void patch(p);
        }}
      />
    </ModelLayout>
  );
}
