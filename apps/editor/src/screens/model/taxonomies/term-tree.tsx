import { useEffect, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { TaxonomyTerm } from '../settings-kit/model-data.ts';
import { errorText } from '../../../ui/error-text.ts';
import { NameCodenameForm } from '../settings-kit/name-codename-form.tsx';
import { sendOps, useSave, type Save } from '../settings-kit/settings-kit.tsx';
import { directionOfKey, dropOf, dropPlaceAt, moveOf, type MoveOp } from './term-moves.ts';

/*
 * A taxonomy group's terms as a nested list. Each term has a handle: drag it onto another term to
 * put it under that term, or onto "Top level"; focused, the arrow keys move it (Up / Down among
 * its siblings, Right under the term above it, Left out of its parent) and focus stays on it.
 * Every move, rename, new term and deletion is one PATCH of the group, sent by `patch`.
 */

export type Patch = (ops: readonly object[]) => Promise<unknown>;

interface TreeProps {
  readonly projectId: string;
  readonly terms: readonly TaxonomyTerm[];
  readonly mayChange: boolean;
  readonly patch: Patch;
}

export function TermTree(props: TreeProps) {
  const moves = useSave(props.projectId);
  const [dragged, setDragged] = useState<string | null>(null);
  const [focusAfter, setFocusAfter] = useState<string | null>(null);

  useEffect(() => {
    if (!focusAfter) return;
    document.querySelector<HTMLElement>(`[data-term-handle="${CSS.escape(focusAfter)}"]`)?.focus();
    setFocusAfter(null);
  }, [props.terms, focusAfter]);

  const send = async (op: MoveOp | null) => {
    if (!op) return;
    if (await moves.run(() => props.patch([op]))) setFocusAfter(op.reference.id);
  };
  const drop = (event: DragEvent, target: string | null) => {
    event.preventDefault();
    event.stopPropagation();
    const id = dragged ?? event.dataTransfer.getData('text/plain');
    setDragged(null);
    // On a term's row: its top quarter puts the term before it, its bottom quarter after it.
    const row = event.target instanceof Element ? event.target.closest('.term-row') : null;
    const box = row?.getBoundingClientRect();
    const place = box ? dropPlaceAt(event.clientY - box.top, box.height) : 'under';
    if (id) void send(dropOf(props.terms, id, target, place));
  };
  const context: RowContext = {
    ...props,
    moves,
    onKey: (event, id) => {
      const direction = directionOfKey(event.key);
      if (!direction) return;
      event.preventDefault();
      void send(moveOf(props.terms, id, direction));
    },
    onDragStart: (event, id) => {
      event.dataTransfer.setData('text/plain', id);
      event.dataTransfer.effectAllowed = 'move';
      setDragged(id);
    },
    onDrop: drop,
  };
  return (
    <div className="term-tree">
      <p className="hint" id="term-move-help">
        Drag a term by its handle onto another term to put it under that term, or onto the top or bottom edge of a term
        to put it before or after it. From the keyboard, focus the handle: Up and Down move the term among its siblings,
        Right puts it under the term above, Left moves it out of its parent.
      </p>
      {moves.error !== null && (
        <p className="field-problem" role="alert">
          {errorText(moves.error)}
        </p>
      )}
      <p role="status" className="visually-hidden">
        {moves.isPending ? 'Moving…' : ''}
      </p>
      {props.mayChange && (
        <div
          className={`term-drop-top${dragged ? ' is-dragging' : ''}`}
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => drop(e, null)}
        >
          Top level
        </div>
      )}
      <TermList terms={props.terms} context={context} label="Terms" />
    </div>
  );
}

interface RowContext extends TreeProps {
  readonly moves: Save;
  readonly onKey: (event: KeyboardEvent, id: string) => void;
  readonly onDragStart: (event: DragEvent, id: string) => void;
  readonly onDrop: (event: DragEvent, target: string | null) => void;
}

function TermList(props: {
  readonly terms: readonly TaxonomyTerm[];
  readonly context: RowContext;
  readonly label: string;
}) {
  if (props.terms.length === 0) return null;
  return (
    <ul className="term-list" aria-label={props.label}>
      {props.terms.map((t) => (
        <TermRow key={t.id} term={t} context={props.context} />
      ))}
    </ul>
  );
}

function TermRow({ term, context }: { readonly term: TaxonomyTerm; readonly context: RowContext }) {
  const save = useSave(context.projectId);
  const [mode, setMode] = useState<'view' | 'rename' | 'add'>('view');
  const rename = async (name: string, codename: string) => {
    const ops: Record<string, unknown>[] = [];
    const reference = { id: term.id };
    if (name !== term.name) ops.push({ op: 'replace', reference, property_name: 'name', value: name });
    if (codename !== term.codename) ops.push({ op: 'replace', reference, property_name: 'codename', value: codename });
    const isDone = await save.run(() => (ops.length ? sendOps(ops, context.patch) : Promise.resolve()));
    if (isDone) setMode('view');
    return isDone;
  };
  const addChild = async (name: string, codename: string) => {
    const value = { name, ...(codename ? { codename } : {}), terms: [] };
    const isDone = await save.run(() => context.patch([{ op: 'addInto', reference: { id: term.id }, value }]));
    if (isDone) setMode('view');
    return isDone;
  };
  return (
    <li className="term" onDragOver={(e) => e.preventDefault()} onDrop={(e) => context.onDrop(e, term.id)}>
      <div className="term-row">
        {context.mayChange && (
          <button
            type="button"
            className="term-handle"
            draggable
            data-term-handle={term.id}
            aria-label={`Move ${term.name}`}
            aria-describedby="term-move-help"
            onDragStart={(e) => context.onDragStart(e, term.id)}
            onKeyDown={(e) => context.onKey(e, term.id)}
          >
            <span aria-hidden="true">⠿</span>
          </button>
        )}
        <span className="term-name">{term.name}</span> <span className="codename">{term.codename}</span>
        {context.mayChange && mode === 'view' && (
          <span className="settings-actions">
            <button
              type="button"
              className="link-button"
              aria-label={`Rename ${term.name}`}
              onClick={() => setMode('rename')}
            >
              Rename
            </button>
            <button
              type="button"
              className="link-button"
              aria-label={`Add term under ${term.name}`}
              onClick={() => setMode('add')}
            >
              Add term
            </button>
            <button
              type="button"
              className="link-button error"
              aria-label={`Delete ${term.name}`}
              onClick={() => void save.run(() => context.patch([{ op: 'remove', reference: { id: term.id } }]))}
            >
              Delete
            </button>
          </span>
        )}
      </div>
      {mode !== 'view' && (
        <NameCodenameForm
          label={mode === 'rename' ? `Rename ${term.name}` : `New term under ${term.name}`}
          submitLabel={mode === 'rename' ? 'Save' : 'Add term'}
          {...(mode === 'rename' ? { initial: { name: term.name, codename: term.codename } } : {})}
          save={save}
          onSubmit={(v) => (mode === 'rename' ? rename(v.name, v.codename) : addChild(v.name, v.codename))}
        >
          <button
            type="button"
            className="button"
            onClick={() => {
              save.clear();
              setMode('view');
            }}
          >
            Cancel
          </button>
        </NameCodenameForm>
      )}
      {mode === 'view' && save.error !== null && (
        <p className="field-problem" role="alert">
          {errorText(save.error)}
        </p>
      )}
      <TermList terms={term.terms} context={context} label={`Terms under ${term.name}`} />
    </li>
  );
}
