import { createContext, useContext } from 'react';
import type { TextAnchor } from './anchor.ts';
import type { CommentThreadJson } from './comments-api.ts';

/** A thread being written: on an element, and on a selection of its text when `anchor` is set. */
export interface ThreadDraft {
  readonly elementId: string;
  readonly anchor: TextAnchor | null;
}

/**
 * What the item's fields need from the comments panel: which elements can be commented (the
 * item's own, not those of components inside rich text), the threads, and ways to start a
 * thread or show one. Absent (null) outside an item screen: fields show no comment controls.
 */
export interface CommentsContextValue {
  readonly elementIds: ReadonlySet<string>;
  readonly threads: readonly CommentThreadJson[];
  readonly activeThreadId: string | null;
  readonly draft: ThreadDraft | null;
  startThread(draft: ThreadDraft): void;
  showThread(threadId: string): void;
}

export const CommentsContext = createContext<CommentsContextValue | null>(null);

/** The item's comments, or null when the field is not one of an item's own elements. */
export function useElementComments(elementId: string): CommentsContextValue | null {
  const value = useContext(CommentsContext);
  return value !== null && value.elementIds.has(elementId) ? value : null;
}
