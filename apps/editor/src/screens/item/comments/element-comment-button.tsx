import { CommentIcon } from './comment-icon.tsx';
import { useElementComments } from './comments-context.tsx';

/** "Comment" beside an element's name: opens a new thread on the element in the Comments panel. */
export function ElementCommentButton({ elementId, name }: { elementId: string; name: string }) {
  const comments = useElementComments(elementId);
  if (comments === null) return null;
  const open = comments.threads.filter((t) => t.element.id === elementId && !t.is_resolved).length;
  // Named by its (hidden) text, not aria-label: fields are found by their label, and this is not one.
  const count = open === 0 ? '' : `, ${open} open ${open === 1 ? 'thread' : 'threads'}`;
  return (
    <button type="button" className="comment-button" onClick={() => comments.startThread({ elementId, anchor: null })}>
      <CommentIcon />
      <span className="visually-hidden">{`Comment on ${name}${count}`}</span>
      {open > 0 ? <span aria-hidden="true">{open}</span> : null}
    </button>
  );
}
