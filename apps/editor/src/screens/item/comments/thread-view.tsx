import { useEffect, useRef, useState } from 'react';
import type { CommentThreadJson, useCommentActions } from './comments-api.ts';
import { CommentForm } from './comment-form.tsx';
import type { MentionPerson } from './mention-input.tsx';

type Actions = ReturnType<typeof useCommentActions>;

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * One thread: where it is (the element, the quoted text), its comments (the author's own with
 * Edit and Delete), a reply box and Resolve; a resolved thread shows Reopen instead.
 */
export function ThreadView(props: {
  thread: CommentThreadJson;
  elementName: string;
  people: readonly MentionPerson[];
  userId: string | null;
  isActive: boolean;
  actions: Actions;
}) {
  const { thread, people, actions } = props;
  const ref = useRef<HTMLElement>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const nameOf = (id: string) => people.find((p) => p.id === id)?.email ?? 'Someone';
  const headingId = `thread-${thread.id}`;
  useEffect(() => {
    if (props.isActive) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [props.isActive]);
  const threadId = thread.id;
  return (
    <article
      ref={ref}
      className={`comment-thread${props.isActive ? ' is-active' : ''}${thread.is_resolved ? ' is-resolved' : ''}`}
      aria-labelledby={headingId}
      data-thread-id={thread.id}
    >
      <h3 id={headingId} className="comment-thread-title">
        {props.elementName}
      </h3>
      {thread.anchor ? <blockquote className="comment-quote">{thread.anchor.quote}</blockquote> : null}
      <ol className="comment-list">
        {thread.comments.map((c) => (
          <li key={c.id} className="comment">
            <p className="comment-meta">
              <strong>{nameOf(c.author.id)}</strong> <time dateTime={c.created_at}>{when(c.created_at)}</time>
            </p>
            {editing === c.id ? (
              <CommentForm
                label="Edit comment"
                submitText="Save"
                people={people}
                initial={{ text: c.text, mentions: c.mentions.map((m) => m.id) }}
                onCancel={() => setEditing(null)}
                onSubmit={async (d) => {
                  await actions.edit.mutateAsync({ threadId, commentId: c.id, ...d });
                  setEditing(null);
                }}
              />
            ) : (
              <p className="comment-text">{c.text}</p>
            )}
            {c.author.id === props.userId && editing !== c.id ? (
              <div className="comment-own-actions">
                <button type="button" onClick={() => setEditing(c.id)}>
                  Edit
                </button>
                <button
                  type="button"
                  onClick={() => {
                    if (window.confirm('Delete this comment?')) actions.remove.mutate({ threadId, commentId: c.id });
                  }}
                >
                  Delete
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      {thread.is_resolved ? (
        <button type="button" onClick={() => actions.resolve.mutate({ threadId, isResolved: false })}>
          Reopen
        </button>
      ) : (
        <>
          <CommentForm
            label="Reply"
            submitText="Reply"
            people={people}
            onSubmit={(d) => actions.reply.mutateAsync({ threadId, ...d })}
          />
          <button
            type="button"
            className="comment-resolve"
            onClick={() => actions.resolve.mutate({ threadId, isResolved: true })}
          >
            Resolve
          </button>
        </>
      )}
    </article>
  );
}
