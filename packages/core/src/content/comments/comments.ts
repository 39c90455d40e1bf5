import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import { Problems } from '../../model/shared/index.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { VariantInput } from '../variants/load.ts';
import {
  authorOf,
  commentEvent,
  loadCommentScope,
  readMentioned,
  requireThread,
  type CommentScope,
  type MentionedPerson,
} from './comment-context.ts';
import { commentLimits, readAnchor, readCommentBody, readElementRef } from './comment-input.ts';
import { commentThreadJson, type CommentThreadJson, type CommentThreadsJson } from './comment-json.ts';
import type { CommentRecord, CommentThreadRecord } from './comment-record.ts';

/*
 * Comments on a language variant (issue 31; a Lectern extension of the Management API, served
 * under `/items/{item}/variants/{language}/comments`). Anyone who may read the item may comment,
 * reply, resolve and reopen; only a comment's author may edit or delete it. Every write locks the
 * item, runs in one transaction and appends a `comment` change event.
 */

/** Someone to tell by e-mail that they were mentioned (a new mention, never the author). */
export interface MentionNotice {
  readonly to: string;
  readonly authorId: string;
  /** The author's e-mail address (the name people know them by in Lectern). */
  readonly authorEmail: string;
  readonly itemId: string;
  readonly itemName: string;
  readonly languageId: string;
  readonly languageCodename: string;
  readonly elementName: string;
  readonly text: string;
}

/** The answer of a write that may mention people. */
export interface CommentWrite {
  readonly thread: CommentThreadJson;
  readonly notices: MentionNotice[];
}

export type ThreadInput = VariantInput & { readonly threadId: string };

async function noticesOf(
  tx: UnitOfWork,
  scope: CommentScope,
  input: { elementId: string; authorId: string; text: string; people: readonly MentionedPerson[] },
): Promise<MentionNotice[]> {
  const people = input.people.filter((p) => p.userId !== input.authorId);
  if (people.length === 0) return [];
  const authorEmail = (await tx.users.get(input.authorId))?.email ?? '';
  const element = scope.type.elements.find((e) => e.id === input.elementId);
  const elementName = typeof element?.['name'] === 'string' ? element['name'] : (element?.codename ?? '');
  return people.map((p) => ({
    to: p.email,
    authorId: input.authorId,
    authorEmail,
    itemId: scope.item.id,
    itemName: scope.item.name,
    languageId: scope.language.id,
    languageCodename: scope.language.codename,
    elementName,
    text: input.text,
  }));
}

async function assertRoomForComment(
  tx: UnitOfWork,
  where: { projectId: string; itemId: string; languageId: string },
): Promise<void> {
  if ((await tx.comments.countComments(where)) >= commentLimits.commentsPerVariant)
    throw new LecternError('COMMENT_LIMIT_REACHED', {
      message: `A language variant holds at most ${commentLimits.commentsPerVariant} comments; resolve and delete old ones first.`,
    });
}

/** Every thread of the variant with its comments, oldest first (none when the variant is absent). */
export async function listCommentThreads(deps: CoreDeps, input: VariantInput): Promise<CommentThreadsJson> {
  return deps.store.transaction(async (tx) => {
    const scope = await loadCommentScope(tx, input, { isForUpdate: false });
    const threads = await tx.comments.listThreads({
      projectId: input.projectId,
      itemId: scope.item.id,
      languageId: scope.language.id,
    });
    return { threads: threads.map(commentThreadJson) };
  });
}

/**
 * Opens a thread on an element of the item's type (`element`), on a selection of a rich text
 * element's text when `anchor` is given, with its first comment (`text`, `mentions`).
 */
export async function createCommentThread(
  deps: CoreDeps,
  input: VariantInput & { body: unknown },
): Promise<CommentWrite> {
  const authorId = authorOf(input);
  const problems = new Problems();
  const content = readCommentBody(input.body, problems);
  const raw = (typeof input.body === 'object' && input.body !== null ? input.body : {}) as Record<string, unknown>;
  const ref = readElementRef(raw['element'], problems);
  const anchor = readAnchor(raw['anchor'], problems);
  problems.throwIfAny();
  return deps.store.transaction(async (tx) => {
    const scope = await loadCommentScope(tx, input, { isForUpdate: true });
    if (!scope.hasVariant) throw new LecternError('VARIANT_NOT_FOUND');
    const element = scope.type.elements.find((e) => (ref.id ? e.id === ref.id : e.codename === ref.codename));
    if (!element) problems.add('element', "The element is not an element of the item's content type.");
    else if (anchor !== null && element.type !== 'rich_text')
      problems.add('anchor', 'Only a selection of rich text can be commented; comment on the whole element instead.');
    const people = await readMentioned(tx, { projectId: input.projectId, ids: content.mentions, problems });
    problems.throwIfAny();
    const where = { projectId: input.projectId, itemId: scope.item.id, languageId: scope.language.id };
    if ((await tx.comments.countThreads(where)) >= commentLimits.threadsPerVariant)
      throw new LecternError('COMMENT_LIMIT_REACHED', {
        message: `A language variant holds at most ${commentLimits.threadsPerVariant} comment threads.`,
      });
    await assertRoomForComment(tx, where);
    const now = deps.clock.now();
    const id = deps.ids.uuid();
    const comment: CommentRecord = {
      id: deps.ids.uuid(),
      threadId: id,
      authorId,
      text: content.text,
      mentions: content.mentions,
      createdAt: now,
      lastModified: now,
    };
    const thread: CommentThreadRecord = {
      ...where,
      id,
      elementId: (element as { id: string }).id,
      anchor,
      createdBy: authorId,
      createdAt: now,
      resolvedAt: null,
      resolvedBy: null,
      comments: [comment],
    };
    await tx.comments.insertThread(thread);
    await tx.outbox.append(input.projectId, [commentEvent('create', scope, id)], now);
    return {
      thread: commentThreadJson(thread),
      notices: await noticesOf(tx, scope, { elementId: thread.elementId, authorId, text: content.text, people }),
    };
  });
}

/** Adds a reply to an open thread (COMMENT_THREAD_RESOLVED when it is resolved). */
export async function replyToCommentThread(
  deps: CoreDeps,
  input: ThreadInput & { body: unknown },
): Promise<CommentWrite> {
  const authorId = authorOf(input);
  const problems = new Problems();
  const content = readCommentBody(input.body, problems);
  problems.throwIfAny();
  return deps.store.transaction(async (tx) => {
    const scope = await loadCommentScope(tx, input, { isForUpdate: true });
    const thread = await requireThread(tx, { projectId: input.projectId, threadId: input.threadId, scope });
    if (thread.resolvedAt !== null) throw new LecternError('COMMENT_THREAD_RESOLVED');
    if (thread.comments.length >= commentLimits.commentsPerThread)
      throw new LecternError('COMMENT_LIMIT_REACHED', {
        message: `A comment thread holds at most ${commentLimits.commentsPerThread} comments.`,
      });
    await assertRoomForComment(tx, {
      projectId: input.projectId,
      itemId: scope.item.id,
      languageId: scope.language.id,
    });
    const people = await readMentioned(tx, { projectId: input.projectId, ids: content.mentions, problems });
    problems.throwIfAny();
    const now = deps.clock.now();
    const comment: CommentRecord = {
      id: deps.ids.uuid(),
      threadId: thread.id,
      authorId,
      text: content.text,
      mentions: content.mentions,
      createdAt: now,
      lastModified: now,
    };
    await tx.comments.insertComment(input.projectId, comment);
    await tx.outbox.append(input.projectId, [commentEvent('reply', scope, thread.id)], now);
    return {
      thread: commentThreadJson({ ...thread, comments: [...thread.comments, comment] }),
      notices: await noticesOf(tx, scope, { elementId: thread.elementId, authorId, text: content.text, people }),
    };
  });
}

/** Resolves (`isResolved`) or reopens a thread; doing what is already done changes nothing. */
export async function setCommentThreadResolved(
  deps: CoreDeps,
  input: ThreadInput & { isResolved: boolean },
): Promise<CommentThreadJson> {
  const userId = authorOf(input);
  return deps.store.transaction(async (tx) => {
    const scope = await loadCommentScope(tx, input, { isForUpdate: true });
    const thread = await requireThread(tx, { projectId: input.projectId, threadId: input.threadId, scope });
    if ((thread.resolvedAt !== null) === input.isResolved) return commentThreadJson(thread);
    const now = deps.clock.now();
    const resolution = input.isResolved
      ? { resolvedAt: now, resolvedBy: userId }
      : { resolvedAt: null, resolvedBy: null };
    await tx.comments.setResolved({ projectId: input.projectId, id: thread.id, ...resolution });
    await tx.outbox.append(
      input.projectId,
      [commentEvent(input.isResolved ? 'resolve' : 'reopen', scope, thread.id)],
      now,
    );
    return commentThreadJson({ ...thread, ...resolution });
  });
}

async function ownComment(
  deps: CoreDeps,
  input: ThreadInput & { commentId: string },
  work: (c: {
    scope: CommentScope;
    thread: CommentThreadRecord;
    comment: CommentRecord;
    tx: UnitOfWork;
  }) => Promise<CommentWrite | null>,
): Promise<CommentWrite | null> {
  const userId = authorOf(input);
  return deps.store.transaction(async (tx) => {
    const scope = await loadCommentScope(tx, input, { isForUpdate: true });
    const thread = await requireThread(tx, { projectId: input.projectId, threadId: input.threadId, scope });
    const comment = thread.comments.find((c) => c.id === input.commentId.toLowerCase());
    if (!comment) throw new LecternError('COMMENT_NOT_FOUND');
    if (comment.authorId !== userId) throw new LecternError('COMMENT_NOT_OWN');
    return work({ scope, thread, comment, tx });
  });
}

/** Replaces the text and mentions of one's own comment; only people newly mentioned are told. */
export async function editComment(
  deps: CoreDeps,
  input: ThreadInput & { commentId: string; body: unknown },
): Promise<CommentWrite> {
  const problems = new Problems();
  const content = readCommentBody(input.body, problems);
  problems.throwIfAny();
  const result = await ownComment(deps, input, async ({ scope, thread, comment, tx }) => {
    const people = await readMentioned(tx, { projectId: input.projectId, ids: content.mentions, problems });
    problems.throwIfAny();
    const now = deps.clock.now();
    await tx.comments.updateComment({
      projectId: input.projectId,
      id: comment.id,
      text: content.text,
      mentions: content.mentions,
      lastModified: now,
    });
    await tx.outbox.append(input.projectId, [commentEvent('update', scope, thread.id)], now);
    const next = { ...comment, text: content.text, mentions: content.mentions, lastModified: now };
    const added = people.filter((p) => !comment.mentions.includes(p.userId));
    return {
      thread: commentThreadJson({ ...thread, comments: thread.comments.map((c) => (c.id === comment.id ? next : c)) }),
      notices: await noticesOf(tx, scope, {
        elementId: thread.elementId,
        authorId: comment.authorId,
        text: content.text,
        people: added,
      }),
    };
  });
  return result as CommentWrite;
}

/** Deletes one's own comment; a thread left without comments goes with it. */
export async function deleteComment(deps: CoreDeps, input: ThreadInput & { commentId: string }): Promise<void> {
  await ownComment(deps, input, async ({ scope, thread, comment, tx }) => {
    if (thread.comments.length === 1) await tx.comments.deleteThread(input.projectId, thread.id);
    else await tx.comments.deleteComment(input.projectId, comment.id);
    await tx.outbox.append(input.projectId, [commentEvent('delete', scope, thread.id)], deps.clock.now());
    return null;
  });
}
