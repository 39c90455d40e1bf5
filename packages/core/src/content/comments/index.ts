export type { CommentRecord, CommentRepository, CommentThreadRecord, TextAnchor } from './comment-record.ts';
export type { CommentJson, CommentThreadJson, CommentThreadsJson } from './comment-json.ts';
export { commentLimits } from './comment-input.ts';
export {
  createCommentThread,
  deleteComment,
  editComment,
  listCommentThreads,
  replyToCommentThread,
  setCommentThreadResolved,
  type CommentWrite,
  type MentionNotice,
  type ThreadInput,
} from './comments.ts';
