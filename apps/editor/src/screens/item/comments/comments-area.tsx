import { useMemo, useState, type ReactNode } from 'react';
import { useSession } from '../../../api/session.ts';
import type { TypeElement } from '../../../elements/model.ts';
import { useUsers } from '../../../workflow/workflow-api.ts';
import { CommentForm } from './comment-form.tsx';
import { CommentsContext, type CommentsContextValue, type ThreadDraft } from './comments-context.tsx';
import { useCommentActions, useCommentThreads, type CommentsScope } from './comments-api.ts';
import { ThreadView } from './thread-view.tsx';
import './comments.css';

/**
 * The item's form with the Comments panel beside it (Kontent.ai's comments sidebar): the fields
 * below get comment buttons through the context; the panel lists the open threads, a new one
 * being written, and the resolved ones collapsed.
 */
export function CommentsArea(props: CommentsScope & { elements: readonly TypeElement[]; children: ReactNode }) {
  const { projectId, itemId, languageId, elements } = props;
  const scope = { projectId, itemId, languageId };
  const threads = useCommentThreads(scope);
  const actions = useCommentActions(scope);
  const users = useUsers(projectId);
  const session = useSession();
  const [draft, setDraft] = useState<ThreadDraft | null>(null);
  const [activeThreadId, setActive] = useState<string | null>(null);
  const list = useMemo(() => threads.data ?? [], [threads.data]);
  const context = useMemo<CommentsContextValue>(
    () => ({
      elementIds: new Set(elements.map((e) => e.id)),
      threads: list,
      activeThreadId,
      draft,
      startThread: (next) => {
        setDraft(next);
        setActive(null);
        // The new comment's text box takes the focus once it is shown.
        setTimeout(() => document.getElementById('new-comment-form')?.querySelector('textarea')?.focus(), 0);
      },
      showThread: setActive,
    }),
    [elements, list, activeThreadId, draft],
  );
  const people = (users.data ?? []).map((u) => ({ id: u.id, email: u.email }));
  const nameOf = (elementId: string) => {
    const e = elements.find((x) => x.id === elementId);
    return e?.name ?? e?.codename ?? 'An element';
  };
  const open = list.filter((t) => !t.is_resolved);
  const resolved = list.filter((t) => t.is_resolved);
  const view = (t: (typeof list)[number]) => (
    <ThreadView
      key={t.id}
      thread={t}
      elementName={nameOf(t.element.id)}
      people={people}
      userId={session.data?.user.id ?? null}
      isActive={t.id === activeThreadId}
      actions={actions}
    />
  );
  return (
    <CommentsContext.Provider value={context}>
      <div className="item-with-comments">
        {props.children}
        <aside className="comments-panel" aria-labelledby="comments-title">
          <h2 id="comments-title">Comments</h2>
          {draft ? (
            <section id="new-comment-form" className="comment-thread is-active" aria-label="New comment">
              <h3 className="comment-thread-title">{nameOf(draft.elementId)}</h3>
              {draft.anchor ? <blockquote className="comment-quote">{draft.anchor.quote}</blockquote> : null}
              <CommentForm
                label="Comment"
                submitText="Comment"
                people={people}
                onCancel={() => setDraft(null)}
                onSubmit={async (d) => {
                  const created = await actions.create.mutateAsync({ ...draft, ...d });
                  setDraft(null);
                  setActive(created.id);
                }}
              />
            </section>
          ) : null}
          {threads.isError ? <p role="alert">The comments could not be loaded.</p> : null}
          {open.length === 0 && !draft ? (
            <p className="comment-hint">
              No open comments. Use the comment button beside an element, or select text in rich text and use Comment in
              its toolbar.
            </p>
          ) : null}
          {open.map(view)}
          {resolved.length > 0 ? (
            <details className="comments-resolved">
              <summary>Resolved ({resolved.length})</summary>
              {resolved.map(view)}
            </details>
          ) : null}
        </aside>
      </div>
    </CommentsContext.Provider>
  );
}
