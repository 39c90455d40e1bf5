import { LecternError } from '@lectern/errors';
import { userIdOf } from '../../domain/actor.ts';
import type { NewChangeEvent } from '../../domain/change-event.ts';
import type { ModelRecord } from '../../domain/model-record.ts';
import { isUuid } from '../../domain/uuid.ts';
import type { LanguageBody } from '../../model/languages.ts';
import { assertModelAccess, describeReference, type Problems } from '../../model/shared/index.ts';
import type { ProjectUserBody } from '../../operations/project-users.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { ContentItemRecord } from '../items/item-record.ts';
import { ContentLookups, type TypeShape } from '../variants/lookups.ts';
import { requireItem, type VariantInput } from '../variants/load.ts';
import type { CommentThreadRecord } from './comment-record.ts';

/** The variant a comment operation works on, and who writes. */
export interface CommentScope {
  readonly item: ContentItemRecord;
  readonly language: ModelRecord<LanguageBody>;
  readonly type: TypeShape;
  readonly hasVariant: boolean;
}

/**
 * Who may comment: anyone who may read the item (the operator, a management key of the project,
 * a person of the project), whatever their role; a comment needs an author, so the caller must
 * act as a user. Returns the author's user id.
 */
export function authorOf(input: VariantInput): string {
  assertModelAccess(input.actor, input.projectId);
  const userId = userIdOf(input.actor);
  if (userId === null) throw new LecternError('COMMENT_AUTHOR_REQUIRED');
  return userId;
}

/**
 * Loads the item (locked when `isForUpdate`: comment writes of one item serialize, so the bounds
 * on threads and comments hold under concurrent requests), the language, the type and whether
 * the variant exists.
 */
export async function loadCommentScope(
  tx: UnitOfWork,
  input: VariantInput,
  options: { isForUpdate: boolean },
): Promise<CommentScope> {
  assertModelAccess(input.actor, input.projectId);
  const lookups = new ContentLookups(tx, input.projectId);
  const item = await requireItem(tx, input.projectId, input.itemKey, options.isForUpdate);
  const language = await lookups.language(input.languageKey);
  if (!language)
    throw new LecternError('LANGUAGE_NOT_FOUND', {
      message: `The language with ${describeReference(input.languageKey)} was not found.`,
    });
  const type = await lookups.type({ id: item.typeId });
  if (!type) throw new LecternError('CONTENT_TYPE_NOT_FOUND', { message: `The item's content type was not found.` });
  const variant = await tx.variants.find(input.projectId, item.id, language.id, { isForUpdate: false });
  return { item, language, type, hasVariant: variant !== null };
}

/** The thread `threadId` of the scope's variant, locked for the write (COMMENT_THREAD_NOT_FOUND otherwise). */
export async function requireThread(
  tx: UnitOfWork,
  input: { projectId: string; threadId: string; scope: CommentScope },
): Promise<CommentThreadRecord> {
  const thread = isUuid(input.threadId)
    ? await tx.comments.findThread(input.projectId, input.threadId.toLowerCase(), { isForUpdate: true })
    : null;
  if (!thread || thread.itemId !== input.scope.item.id || thread.languageId !== input.scope.language.id)
    throw new LecternError('COMMENT_THREAD_NOT_FOUND');
  return thread;
}

/** A person mentioned in a comment, to be told by e-mail. */
export interface MentionedPerson {
  readonly userId: string;
  readonly email: string;
}

/**
 * The people among `ids` (each must be an active person of the project; a problem at
 * `mentions[i]` otherwise), with their e-mail addresses.
 */
export async function readMentioned(
  tx: UnitOfWork,
  input: { projectId: string; ids: readonly string[]; problems: Problems },
): Promise<MentionedPerson[]> {
  const found: MentionedPerson[] = [];
  for (const [i, id] of input.ids.entries()) {
    const member = await tx.model.find<ProjectUserBody>(input.projectId, 'project_user', { id });
    const user = member?.body.is_active ? await tx.users.get(id) : null;
    if (!user) input.problems.add(`mentions[${i}]`, `No active user of the project has the id '${id}'.`);
    else found.push({ userId: id, email: user.email });
  }
  return found;
}

/**
 * The change event of a comment write: on the `management` channel (no delivery data changes),
 * naming the item and language, so an editor that has the item open reloads its comments.
 */
export function commentEvent(operation: string, scope: CommentScope, threadId: string): NewChangeEvent {
  return {
    objectKind: 'comment',
    operation,
    objectId: scope.item.id,
    channel: 'management',
    payload: {
      item_id: scope.item.id,
      item_codename: scope.item.codename,
      language_id: scope.language.id,
      language_codename: scope.language.codename,
      thread_id: threadId,
    },
  };
}
