import { CommentIcon } from './comment-icon.tsx';
import { useElementComments } from './comments-context.tsx';

/** "Comment" beside an element's name: opens a new thread on the element in the Comments panel. */
export function ElementCommentButton({ elementId, name }: { elementId: string; name: string }) {
  const comments = useElementComments(elementId);
  if (comments === null) return null;
  const open = comments.threads.filter((t) => t.element.id === elementId && !t.is_resolved).length;
  // The count is the only visible text, and part of the name ("Comment on Title, 2 open threads").
  const count = open === 0 ? '' : `, ${open} open ${open === 1 ? 'thread' : 'threads'}`;
  return (
    <button
      type="button"
      className="comment-button"
      aria-label={`Comment on ${name}${count}`}
      onClick={() => comments.startThread({ elementId, anchor: null })}
    >
      <CommentIcon />
      {open > 0 ? open : null}
    </button>
  );
}
