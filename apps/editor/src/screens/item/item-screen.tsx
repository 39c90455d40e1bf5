import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { ElementsForm } from '../../elements/elements-form.tsx';
import { WorkflowPanel } from '../../workflow/workflow-panel.tsx';
import { PreviewButton } from '../pages/preview-button.tsx';
import { ItemCustomApps } from '../custom-apps/item-custom-apps.tsx';
import '../../styles/item.css';
import { ErrorSummary } from './error-summary.tsx';
import { HistoryPanel } from './history/history-panel.tsx';
import { LanguageSwitch, MissingVariant } from './language-panel.tsx';
import { useItemChanges } from './live-changes.ts';
import { useNavigationGuard } from './navigation-guard.ts';
import { useItemEditor } from './use-item-editor.ts';
import { CommentsArea } from './comments/comments-area.tsx';
import { ConflictPanel } from './conflict/conflict-panel.tsx';
import { PresenceBar, presenceMarkers } from './conflict/presence-bar.tsx';
import { usePresence } from './conflict/use-presence.ts';

const statusText = { saved: 'Saved', dirty: 'Unsaved changes', saving: 'Saving…', failed: 'Not saved' } as const;

/** The item editor screen: /p/{projectId}/{language}/items/{itemId}. */
export function ItemScreen() {
  const params = useParams<{ projectId: string; language: string; itemId: string }>();
  // A new item or language starts a fresh editor (no edits carried over).
  return <ItemEditorView key={`${params.itemId}/${params.language}`} {...params} />;
}

function ItemEditorView({
  projectId,
  language: languageCodename,
  itemId,
}: {
  projectId: string;
  language: string;
  itemId: string;
}) {
  const editor = useItemEditor(projectId, languageCodename, itemId);
  const [focusRequest, setFocusRequest] = useState<{ elementId: string; seq: number } | null>(null);
  const [isChangedElsewhere, setChangedElsewhere] = useState(false);
  const confirm = useCallback((m: string) => window.confirm(m), []);
  useNavigationGuard(editor.isDirty, confirm);
  const { isDirty, reload, checkRemoteChange } = editor;
  const presence = usePresence({ projectId, itemId, languageId: editor.language?.id ?? null });
  useItemChanges(itemId, () => {
    void checkRemoteChange().then((isChanged) => {
      if (isChanged) setChangedElsewhere(true);
    });
  });
  useEffect(() => {
    if (!isDirty) setChangedElsewhere(false);
  }, [isDirty]);

  const failed = [editor.item, editor.variants, editor.languages, editor.type].find((q) => q.isError);
  if (failed?.error)
    return (
      <main className="item-editor">
        <h1>The item could not be opened</h1>
        <p>{failed.error.message}</p>
        <p>
          <Link href={`/p/${projectId}/${languageCodename}/content`}>Back to Content inventory</Link>
        </p>
      </main>
    );
  const { item, language, type } = editor;
  if (!item.data || !editor.variants.data || !editor.languages.data || !type.data || editor.isVersionLoading)
    return (
      <main className="item-editor" aria-busy="true">
        <h1>Loading the item…</h1>
      </main>
    );
  if (!language)
    return (
      <main className="item-editor">
        <h1>{item.data.name}</h1>
        <p>The project has no language with the codename {languageCodename}.</p>
      </main>
    );
  const isDefaultLanguage = language.is_default;
  const hasVariant = editor.variant !== null || editor.isStartingEmpty;
  const isReadOnly = !editor.canEdit || editor.lockedReason !== null;
  const saveDisabledReason = !editor.canEdit
    ? 'Your role lets you read this item but not change it.'
    : editor.lockedReason
      ? editor.lockedReason
      : editor.isDirty || (!editor.variant && editor.isStartingEmpty)
        ? null
        : 'Nothing to save.';
  const save = () => void editor.save();
  return (
    <main className="item-editor">
      <nav aria-label="Breadcrumb" className="item-breadcrumb">
        <Link href={`/p/${projectId}/${language.codename}/content`}>Content inventory</Link>
      </nav>
      <header className="item-header">
        <h1>{editor.name || item.data.name}</h1>
        <p className="item-meta">
          {type.data.type.name} · {language.name}
        </p>
        <div className="item-name-field">
          <label htmlFor="item-name">Content item name</label>
          <input
            id="item-name"
            value={editor.name}
            readOnly={isReadOnly}
            onChange={(e) => editor.setName(e.target.value)}
          />
        </div>
        <LanguageSwitch
          projectId={projectId}
          itemId={itemId}
          language={language}
          languages={editor.languages.data}
          variants={editor.variants.data}
        />
        <div className="item-save">
          <p id="item-save-status" className="item-status" role="status">
            {statusText[editor.status]}
          </p>
          <button
            type="button"
            className="button-primary"
            onClick={save}
            disabled={saveDisabledReason !== null || editor.status === 'saving'}
            aria-describedby={saveDisabledReason ? 'save-disabled-reason' : undefined}
          >
            Save
          </button>
          {saveDisabledReason && isReadOnly ? (
            <p id="save-disabled-reason" className="element-note">
              {saveDisabledReason}
            </p>
          ) : null}
          <PreviewButton
            projectId={projectId}
            item={item.data}
            languageCodename={language.codename}
            defs={editor.defs}
            values={editor.values}
          />
          <ItemCustomApps
            projectId={projectId}
            itemId={itemId}
            languageId={language.id}
            validationErrors={Object.fromEntries(
              [...editor.apiErrors].map(([id, m]) => [editor.defs.find((d) => d.id === id)?.codename ?? id, m]),
            )}
          />
        </div>
        {editor.variant ? (
          <WorkflowPanel projectId={projectId} itemId={itemId} languageId={language.id} canChange={editor.canEdit} />
        ) : null}
      </header>
      {isChangedElsewhere && !editor.conflict ? (
        <div className="item-notice" role="status">
          <p>
            Someone else changed this item while you were editing. When you save, you will see what they changed and can
            keep both.
          </p>
          <button type="button" onClick={() => void reload()}>
            Discard my changes and load theirs
          </button>
        </div>
      ) : null}
      <PresenceBar others={presence.others} defs={editor.defs} />
      {editor.conflict ? (
        <ConflictPanel
          conflict={{
            changes: editor.conflict.changes,
            savedBy:
              presence.lastSavedBy &&
              Date.parse(presence.lastSavedBy.saved_at) === Date.parse(editor.conflict.theirs.variant.last_modified)
                ? presence.lastSavedBy.name
                : null,
          }}
          isSaving={editor.status === 'saving'}
          onMerge={(choices) => void editor.mergeConflict(choices)}
          onDiscardMine={() => void reload()}
        />
      ) : null}
      {editor.summary ? (
        <ErrorSummary
          title={editor.summary.title}
          entries={editor.summary.entries.map((e) => ({ ...e, elementId: e.elementId }))}
          onOpen={(elementId) => setFocusRequest((r) => ({ elementId, seq: (r?.seq ?? 0) + 1 }))}
        />
      ) : null}
      {hasVariant ? (
        <CommentsArea projectId={projectId} itemId={itemId} languageId={language.id} elements={editor.defs}>
          <section className="item-form" aria-label={`${item.data.name} in ${language.name}`}>
            <ElementsForm
              idPrefix="item"
              elements={editor.defs}
              contentGroups={type.data.type.content_groups}
              values={editor.values}
              onChange={editor.setValues}
              isReadOnly={isReadOnly}
              isDefaultLanguage={isDefaultLanguage}
              apiErrors={editor.apiErrors}
              badges={presenceMarkers(presence.others, editor.defs)}
              focusRequest={focusRequest}
              scope={{
                projectId,
                language: { id: language.id, codename: language.codename },
                item: {
                  id: item.data.id,
                  codename: item.data.codename,
                  name: item.data.name,
                  ...(item.data.collection ? { collection: item.data.collection } : {}),
                },
              }}
            />
          </section>
        </CommentsArea>
      ) : (
        <MissingVariant
          language={language}
          languages={editor.languages.data}
          variants={editor.variants.data}
          canEdit={editor.canEdit}
          onCreateFrom={editor.createFrom}
          onStartEmpty={editor.startEmpty}
        />
      )}
      {editor.variant ? (
        <HistoryPanel
          projectId={projectId}
          itemId={itemId}
          languageId={language.id}
          elements={editor.defs}
          canRestore={editor.canEdit}
          onRestored={() => void reload()}
        />
      ) : null}
    </main>
  );
}
