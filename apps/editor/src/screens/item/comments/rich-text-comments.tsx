import type { EditorState } from 'prosemirror-state';
import { Decoration, DecorationSet, type EditorView } from 'prosemirror-view';
import { useEffect, useState, type ReactNode } from 'react';
import type { ToolbarButton } from '../../../rich-text/toolbar.tsx';
import { anchorOf, findAnchorCached, type TextAnchor } from './anchor.ts';
import { useElementComments } from './comments-context.tsx';

/**
 * Comments in a rich text element: the open threads' text (and a draft's) highlighted by view
 * decorations, which never enter the document or the value; a click on highlighted text shows
 * its thread; and "Comment on the selected text": a toolbar button while the text can be edited,
 * a button of its own under the (disabled) toolbar while it is read-only, since anyone who may
 * read the item may comment. Nothing outside an item's own element.
 */
export function useRichTextComments(input: {
  view: EditorView | null;
  state: EditorState | null;
  elementId: string;
  isReadOnly: boolean;
}): { toolbar: ToolbarButton[]; standalone: ReactNode } {
  const { view, state, elementId, isReadOnly } = input;
  const comments = useElementComments(elementId);
  const hasDomSelection = useDomSelection(isReadOnly && comments !== null ? view : null);
  useEffect(() => {
    if (view === null || view.isDestroyed || comments === null) return;
    const anchored: { id: string | null; anchor: TextAnchor; isActive: boolean }[] = comments.threads
      .filter((t) => t.element.id === elementId && !t.is_resolved && t.anchor !== null)
      .map((t) => ({ id: t.id, anchor: t.anchor as TextAnchor, isActive: t.id === comments.activeThreadId }));
    if (comments.draft?.elementId === elementId && comments.draft.anchor !== null)
      anchored.push({ id: null, anchor: comments.draft.anchor, isActive: true });
    const rangesOf = (s: EditorState) =>
      anchored.flatMap((a) => {
        const range = findAnchorCached(s.doc, a.anchor);
        return range === null ? [] : [{ ...a, ...range }];
      });
    view.setProps({
      decorations: (s) =>
        DecorationSet.create(
          s.doc,
          rangesOf(s).map((r) =>
            Decoration.inline(r.from, r.to, {
              class: `rt-commented${r.isActive ? ' is-active' : ''}`,
              ...(r.id === null ? {} : { 'data-comment-thread': r.id }),
            }),
          ),
        ),
      handleClick: (v, pos) => {
        const hit = rangesOf(v.state).find((r) => r.id !== null && r.from <= pos && pos <= r.to);
        if (hit?.id) comments.showThread(hit.id);
        return false;
      },
    });
  }, [view, comments, elementId]);
  if (comments === null) return { toolbar: [], standalone: null };
  const run = () => {
    const range = view === null ? null : selectedRange(view);
    const anchor = view === null || range === null ? null : anchorOf(view.state.doc, range.from, range.to);
    if (anchor !== null) comments.startThread({ elementId, anchor });
  };
  const selection = state?.selection;
  if (isReadOnly)
    return {
      toolbar: [],
      standalone: (
        <button
          type="button"
          className="rt-comment-selection"
          aria-disabled={hasDomSelection ? undefined : true}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            if (hasDomSelection) run();
          }}
        >
          Comment on the selected text
        </button>
      ),
    };
  return {
    toolbar: [
      {
        key: 'comment',
        label: 'Comment on the selected text',
        text: 'Comment',
        isEnabled: selection !== undefined && !selection.empty,
        onRun: run,
      },
    ],
    standalone: null,
  };
}

/**
 * The selected document range: the editor's selection, or (read-only text, where the editor
 * does not follow the page's selection) the page's selection inside the text.
 */
function selectedRange(view: EditorView): { from: number; to: number } | null {
  if (!view.state.selection.empty) return { from: view.state.selection.from, to: view.state.selection.to };
  const selection = view.dom.ownerDocument.getSelection();
  if (selection === null || selection.isCollapsed || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  if (!view.dom.contains(range.startContainer) || !view.dom.contains(range.endContainer)) return null;
  return {
    from: view.posAtDOM(range.startContainer, range.startOffset),
    to: view.posAtDOM(range.endContainer, range.endOffset),
  };
}

/** Whether the page's selection holds text inside `view` (followed while `view` is given). */
function useDomSelection(view: EditorView | null): boolean {
  const [has, setHas] = useState(false);
  useEffect(() => {
    if (view === null) return;
    const doc = view.dom.ownerDocument;
    const update = () => {
      const s = doc.getSelection();
      setHas(
        s !== null &&
          !s.isCollapsed &&
          s.anchorNode !== null &&
          view.dom.contains(s.anchorNode) &&
          s.toString().trim() !== '',
      );
    };
    doc.addEventListener('selectionchange', update);
    return () => doc.removeEventListener('selectionchange', update);
  }, [view]);
  return has;
}
