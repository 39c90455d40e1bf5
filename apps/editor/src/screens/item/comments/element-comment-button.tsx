import { useElementComments } from './comments-context.tsx';

/** "Comment" beside an element's name: opens a new thread on the element in the Comments panel. */
export function ElementCommentButton({ elementId, name }: { elementId: string; name: string }) {
  const comments = useElementComments(elementId);
  if (comments === null) return null;
  const open = comments.threads.filter((t) => t.element.id === elementId && !t.is_resolved).length;
  return (
    <button
      type="button"
      className="comment-button"
      onClick={() => comments.startThread({ elementId, anchor: null })}
      aria-label={`Comment on ${name}${open > 0 ? ` (${open} open ${open === 1 ? 'thread' : 'threads'})` : ''}`}
    >
      <span aria-hidden="true">💬{open > 0 ? ` ${open}` : ''}</span>
    </button>
  );
}
