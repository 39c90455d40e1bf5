import type { CommentRecord, CommentThreadRecord, TextAnchor } from './comment-record.ts';

/** One comment as the API answers it (a Lectern extension; snake_case as the Management API). */
export interface CommentJson {
  readonly id: string;
  readonly text: string;
  readonly mentions: { readonly id: string }[];
  readonly author: { readonly id: string };
  readonly created_at: string;
  readonly last_modified: string;
}

/** A thread of comments on an element (and a selection of its text when `anchor` is set). */
export interface CommentThreadJson {
  readonly id: string;
  readonly element: { readonly id: string };
  readonly anchor: TextAnchor | null;
  readonly is_resolved: boolean;
  readonly resolved_at: string | null;
  readonly resolved_by: { readonly id: string } | null;
  readonly created_at: string;
  readonly created_by: { readonly id: string };
  readonly comments: CommentJson[];
}

export interface CommentThreadsJson {
  readonly threads: CommentThreadJson[];
}

export function commentJson(c: CommentRecord): CommentJson {
  return {
    id: c.id,
    text: c.text,
    mentions: c.mentions.map((id) => ({ id })),
    author: { id: c.authorId },
    created_at: c.createdAt.toISOString(),
    last_modified: c.lastModified.toISOString(),
  };
}

export function commentThreadJson(t: CommentThreadRecord): CommentThreadJson {
  return {
    id: t.id,
    element: { id: t.elementId },
    anchor: t.anchor,
    is_resolved: t.resolvedAt !== null,
    resolved_at: t.resolvedAt?.toISOString() ?? null,
    resolved_by: t.resolvedBy === null ? null : { id: t.resolvedBy },
    created_at: t.createdAt.toISOString(),
    created_by: { id: t.createdBy },
    comments: t.comments.map(commentJson),
  };
}
