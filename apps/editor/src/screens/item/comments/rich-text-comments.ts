import type { EditorState } from 'prosemirror-state';
import { Decoration, DecorationSet, type EditorView } from 'prosemirror-view';
import { useEffect } from 'react';
import type { ToolbarButton } from '../../../rich-text/toolbar.tsx';
import { anchorOf, findAnchorCached, type TextAnchor } from './anchor.ts';
import { useElementComments } from './comments-context.tsx';

/**
 * Comments in a rich text element: the open threads' text (and a draft's) highlighted by view
 * decorations, which never enter the document or the value; a click on highlighted text shows
 * its thread; and the toolbar's "Comment" button for the selected text. Nothing outside an
 * item's own element.
 */
export function useRichTextComments(input: {
  view: EditorView | null;
  state: EditorState | null;
  elementId: string;
}): ToolbarButton[] {
  const { view, state, elementId } = input;
  const comments = useElementComments(elementId);
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
  if (comments === null) return [];
  const selection = state?.selection;
  return [
    {
      key: 'comment',
      label: 'Comment on the selected text',
      text: 'Comment',
      isEnabled: selection !== undefined && !selection.empty,
      onRun: () => {
        if (state === null) return;
        const anchor = anchorOf(state.doc, state.selection.from, state.selection.to);
        if (anchor !== null) comments.startThread({ elementId, anchor });
      },
    },
  ];
}
