/**
 * Comments on a language variant (issue 31): threads on one element, or on a selection of text in
 * a rich text element, each with its comments (the first one opens it; the rest are replies).
 * Comments are kept beside the variant, never in its value: the value stays Kontent.ai rich text.
 */

/**
 * Where a thread on a rich text selection points: the selected text and a few characters on each
 * side of it (as the W3C Web Annotation `TextQuoteSelector`), plus its offset in the element's
 * plain text when it was made (`start`), which only breaks ties between several matches. The app
 * finds the quote again in whatever text the element holds now, so the anchor survives edits of
 * the text around it, by anyone and through any API.
 */
export interface TextAnchor {
  readonly quote: string;
  readonly prefix: string;
  readonly suffix: string;
  readonly start: number;
}

export interface CommentRecord {
  readonly id: string;
  readonly threadId: string;
  readonly authorId: string;
  readonly text: string;
  /** Ids of the project's people mentioned in the text. */
  readonly mentions: readonly string[];
  readonly createdAt: Date;
  readonly lastModified: Date;
}

export interface CommentThreadRecord {
  readonly projectId: string;
  readonly id: string;
  readonly itemId: string;
  readonly languageId: string;
  readonly elementId: string;
  /** Null: a comment on the whole element. */
  readonly anchor: TextAnchor | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly resolvedAt: Date | null;
  readonly resolvedBy: string | null;
  /** Oldest first; the first one opened the thread. */
  readonly comments: readonly CommentRecord[];
}

/** The store's comment threads (migration 0023). Writes run in the caller's transaction. */
export interface CommentRepository {
  /** The threads of one variant with their comments, oldest first. */
  listThreads(input: { projectId: string; itemId: string; languageId: string }): Promise<CommentThreadRecord[]>;
  /** How many threads the variant has (for the bound on them). */
  countThreads(input: { projectId: string; itemId: string; languageId: string }): Promise<number>;
  /** How many comments the variant's threads hold together (for the bound on them). */
  countComments(input: { projectId: string; itemId: string; languageId: string }): Promise<number>;
  /** One thread with its comments, or null; `isForUpdate` locks its row until commit. */
  findThread(projectId: string, id: string, options?: { isForUpdate?: boolean }): Promise<CommentThreadRecord | null>;
  /** Stores a new thread (its `comments` are stored too). */
  insertThread(thread: CommentThreadRecord): Promise<void>;
  /** Sets or clears the thread's resolution. */
  setResolved(input: {
    projectId: string;
    id: string;
    resolvedAt: Date | null;
    resolvedBy: string | null;
  }): Promise<void>;
  /** Removes the thread and its comments; true when it existed. */
  deleteThread(projectId: string, id: string): Promise<boolean>;
  insertComment(projectId: string, comment: CommentRecord): Promise<void>;
  updateComment(input: {
    projectId: string;
    id: string;
    text: string;
    mentions: readonly string[];
    lastModified: Date;
  }): Promise<void>;
  /** Removes one comment; true when it existed. */
  deleteComment(projectId: string, id: string): Promise<boolean>;
}
