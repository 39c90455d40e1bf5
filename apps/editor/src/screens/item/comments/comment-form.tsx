import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/client.ts';
import { emptyMention, keptMentions, MentionInput, type MentionPerson, type MentionValue } from './mention-input.tsx';
import type { CommentDraft } from './comments-api.ts';

/** A comment's text box with mentions, its submit button and, optionally, Cancel. */
export function CommentForm(props: {
  label: string;
  submitText: string;
  people: readonly MentionPerson[];
  initial?: MentionValue;
  onSubmit: (draft: CommentDraft) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [value, setValue] = useState<MentionValue>(props.initial ?? emptyMention);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.text.trim() === '') return setError('Write something first.');
    setBusy(true);
    setError(null);
    props
      .onSubmit({ text: value.text, mentions: keptMentions(value, props.people) })
      .then(() => setValue(emptyMention))
      .catch((failure: unknown) =>
        setError(failure instanceof ApiError ? failure.message : 'The comment was not saved.'),
      )
      .finally(() => setBusy(false));
  };
  return (
    <form className="comment-form" onSubmit={submit}>
      <MentionInput id={id} label={props.label} value={value} people={props.people} onChange={setValue} />
      {error === null ? null : (
        <p role="alert" className="comment-error">
          {error}
        </p>
      )}
      <div className="comment-form-actions">
        <button type="submit" className="button-primary" disabled={isBusy}>
          {props.submitText}
        </button>
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
