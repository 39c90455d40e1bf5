import type { CommentThreadJson, CommentThreadsJson } from '@lectern/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, mapi } from '../../../api/client.ts';
import { onProjectChange } from '../../../api/live.ts';
import type { TextAnchor } from './anchor.ts';

/*
 * The item's comments through `…/items/{item}/variants/{language}/comments` (docs/comments.md).
 * Another person's comment arrives as a `comment` change on the project's stream and refetches
 * the list.
 */

export type { CommentThreadJson };

export interface CommentsScope {
  readonly projectId: string;
  readonly itemId: string;
  readonly languageId: string;
}

const keyOf = (s: CommentsScope) => ['comments', s.projectId, s.itemId, s.languageId] as const;
const pathOf = (s: CommentsScope, rest = '') =>
  mapi(s.projectId, `/items/${s.itemId}/variants/${s.languageId}/comments${rest}`);

export function useCommentThreads(scope: CommentsScope) {
  const client = useQueryClient();
  const { projectId, itemId, languageId } = scope;
  useEffect(
    () =>
      onProjectChange((change) => {
        if (change === null || (change.object_kind === 'comment' && change.id === itemId))
          void client.invalidateQueries({ queryKey: keyOf({ projectId, itemId, languageId }) });
      }),
    [client, projectId, itemId, languageId],
  );
  return useQuery({
    queryKey: keyOf(scope),
    queryFn: async () => (await api<CommentThreadsJson>(pathOf(scope))).threads,
  });
}

export interface CommentDraft {
  readonly text: string;
  readonly mentions: readonly string[];
}

/** Every change of the item's comments; each refetches the list when done. */
export function useCommentActions(scope: CommentsScope) {
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: keyOf(scope) });
  const body = (d: CommentDraft) => ({ text: d.text, mentions: d.mentions.map((id) => ({ id })) });
  const create = useMutation({
    mutationFn: (input: { elementId: string; anchor: TextAnchor | null } & CommentDraft) =>
      api<CommentThreadJson>(pathOf(scope), {
        method: 'POST',
        body: { element: { id: input.elementId }, anchor: input.anchor, ...body(input) },
      }),
    onSettled: done,
  });
  const reply = useMutation({
    mutationFn: (input: { threadId: string } & CommentDraft) =>
      api<CommentThreadJson>(pathOf(scope, `/${input.threadId}/replies`), { method: 'POST', body: body(input) }),
    onSettled: done,
  });
  const resolve = useMutation({
    mutationFn: (input: { threadId: string; isResolved: boolean }) =>
      api<CommentThreadJson>(pathOf(scope, `/${input.threadId}/${input.isResolved ? 'resolve' : 'reopen'}`), {
        method: 'PUT',
      }),
    onSettled: done,
  });
  const edit = useMutation({
    mutationFn: (input: { threadId: string; commentId: string } & CommentDraft) =>
      api<CommentThreadJson>(pathOf(scope, `/${input.threadId}/comments/${input.commentId}`), {
        method: 'PUT',
        body: body(input),
      }),
    onSettled: done,
  });
  const remove = useMutation({
    mutationFn: (input: { threadId: string; commentId: string }) =>
      api<null>(pathOf(scope, `/${input.threadId}/comments/${input.commentId}`), { method: 'DELETE' }),
    onSettled: done,
  });
  return { create, reply, resolve, edit, remove };
}
