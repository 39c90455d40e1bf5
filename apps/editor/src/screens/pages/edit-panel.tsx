import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ElementsForm } from '../../elements/elements-form.tsx';
import { FormScopeContext, type FormScope } from '../../elements/element-props.ts';
import { ItemPicker } from '../../elements/item-picker.tsx';
import type { ElementValue, TypeElement } from '../../elements/model.ts';
import { WorkflowPanel } from '../../workflow/workflow-panel.tsx';
import { useItemEditor } from '../item/use-item-editor.ts';
import { insertAt, type InsertPosition } from './smart-link-protocol.ts';

const statusText = { saved: 'Saved', dirty: 'Unsaved changes', saving: 'Saving…', failed: 'Not saved' } as const;

/** What the site asked the panel to do: open an element, or add items into a linked-items element. */
export type PanelRequest =
  | { kind: 'edit'; itemId: string; elementCodename: string | null; seq: number }
  | { kind: 'insert'; itemId: string; elementCodename: string; position: InsertPosition; seq: number };

export interface PanelValues {
  readonly item: { id: string; codename: string };
  readonly language: { id: string; codename: string };
  readonly defs: readonly TypeElement[];
  readonly values: readonly ElementValue[];
  /** Whether the values are unsaved edits (a reloaded site gets them again). */
  readonly isDirty: boolean;
}

/**
 * The item editor beside the site (Web Spotlight's side panel): the item's elements, scrolled to
 * and focused on the clicked one, Save and the workflow panel. Every change of the form is handed
 * to `onValues` (the page view sends it to the site as a live-preview update).
 */
export function EditPanel(props: {
  projectId: string;
  languageCodename: string;
  request: PanelRequest;
  onValues: (values: PanelValues) => void;
  onClose: () => void;
}) {
  const { projectId, languageCodename, request } = props;
  const editor = useItemEditor(projectId, languageCodename, request.itemId);
  const [picking, setPicking] = useState<{ def: TypeElement; position: InsertPosition } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const target = editor.defs.find((d) => d.codename === request.elementCodename) ?? null;
  const focusRequest = useMemo(
    () => (target ? { elementId: target.id, seq: request.seq } : null),
    [target, request.seq],
  );

  useEffect(() => {
    if (!target) heading.current?.focus();
  }, [target, request.seq]);

  // An add button's "insert existing item" / "create new item": the picker for that element.
  useEffect(() => {
    if (request.kind !== 'insert' || !target) return;
    setPicking({ def: target, position: request.position });
  }, [request, target]);

  const { item, language, values, defs } = editor;
  const onValues = useRef(props.onValues);
  onValues.current = props.onValues;
  useEffect(() => {
    if (!item.data || !language) return;
    onValues.current({
      item: { id: item.data.id, codename: item.data.codename },
      language: { id: language.id, codename: language.codename },
      defs,
      values,
      isDirty: editor.isDirty,
    });
  }, [item.data, language, defs, values, editor.isDirty]);

  if (!item.data || !editor.type.data || !language)
    return (
      <aside className="page-panel" aria-label="Item" aria-busy="true">
        <p role="status">Loading the item…</p>
      </aside>
    );
  const isReadOnly = !editor.canEdit || editor.lockedReason !== null;
  const scope: FormScope = {
    projectId,
    language: { id: language.id, codename: language.codename },
    item: { id: item.data.id, codename: item.data.codename, name: item.data.name },
    values: new Map(values.map((v) => [v.element.id, v])),
    elements: defs,
    renderComponent: () => null,
  };
  const insert = (ids: string[]) => {
    if (!picking) return;
    const current = values.find((v) => v.element.id === picking.def.id);
    const had = Array.isArray(current?.value) ? (current.value as { id: string }[]).map((r) => r.id) : [];
    const next = insertAt(had, ids, picking.position).map((id) => ({ id }));
    editor.setValues(values.map((v) => (v.element.id === picking.def.id ? { ...v, value: next } : v)));
    setPicking(null);
  };
  return (
    <aside className="page-panel" aria-labelledby="page-panel-title">
      <header className="page-panel-header">
        <h2 id="page-panel-title" tabIndex={-1} ref={heading}>
          {editor.name || item.data.name}
        </h2>
        <p className="item-meta">
          {editor.type.data.type.name} ·{' '}
          <Link href={`/p/${projectId}/${language.codename}/items/${item.data.id}`}>Open in the item editor</Link>
        </p>
        <p id="page-panel-status" className="item-status" role="status">
          {statusText[editor.status]}
        </p>
        {editor.lockedReason ? <p className="element-note">{editor.lockedReason}</p> : null}
        <div className="page-panel-actions">
          <button
            type="button"
            className="button-primary"
            onClick={() => void editor.save()}
            disabled={isReadOnly || !editor.isDirty || editor.status === 'saving'}
          >
            Save
          </button>
          <button type="button" className="button" onClick={props.onClose}>
            Close
          </button>
        </div>
        {editor.summary ? (
          <div role="alert" className="item-notice">
            <p>{editor.summary.title}</p>
            <ul>
              {editor.summary.entries.map((e, i) => (
                <li key={i}>{e.elementName ? `${e.elementName}: ${e.message}` : e.message}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {editor.variant ? (
          <WorkflowPanel
            projectId={projectId}
            itemId={item.data.id}
            languageId={language.id}
            canChange={editor.canEdit}
          />
        ) : null}
      </header>
      <ElementsForm
        idPrefix="panel"
        elements={defs}
        contentGroups={editor.type.data.type.content_groups}
        values={values}
        onChange={editor.setValues}
        isReadOnly={isReadOnly}
        isDefaultLanguage={language.is_default}
        apiErrors={editor.apiErrors}
        focusRequest={focusRequest}
        scope={{ projectId, language: scope.language, item: scope.item }}
      />
      {picking ? (
        <FormScopeContext.Provider value={scope}>
          <ItemPicker
            allowedTypeIds={((picking.def['allowed_content_types'] ?? []) as { id: string }[]).map((t) => t.id)}
            excludeIds={[]}
            onPick={insert}
            onClose={() => setPicking(null)}
          />
        </FormScopeContext.Provider>
      ) : null}
    </aside>
  );
}
