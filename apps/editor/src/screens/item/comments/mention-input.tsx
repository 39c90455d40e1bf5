import { useRef, useState } from 'react';

export interface MentionPerson {
  readonly id: string;
  readonly email: string;
}

/** The text and the people mentioned in it (those whose `@e-mail` is still in the text). */
export interface MentionValue {
  readonly text: string;
  readonly mentions: readonly string[];
}

export const emptyMention: MentionValue = { text: '', mentions: [] };

/** Mentions kept only while their `@e-mail` is in the text. */
export function keptMentions(value: MentionValue, people: readonly MentionPerson[]): string[] {
  return value.mentions.filter((id) => {
    const person = people.find((p) => p.id === id);
    return person !== undefined && value.text.includes(`@${person.email}`);
  });
}

const maxShown = 8;

/**
 * A comment's text with @-mentions: typing `@` and part of a name lists the project's people
 * who match (as in Kontent.ai); choosing one writes `@their e-mail` and mentions them. The list
 * is plain buttons after the text box (Down arrow moves into it; Escape goes back).
 */
export function MentionInput(props: {
  id: string;
  label: string;
  value: MentionValue;
  people: readonly MentionPerson[];
  onChange: (next: MentionValue) => void;
}) {
  const { id, label, value, people, onChange } = props;
  const box = useRef<HTMLTextAreaElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [caret, setCaret] = useState(0);
  const typed = /(^|\s)@([^\s@]*)$/.exec(value.text.slice(0, caret));
  const query = typed?.[2]?.toLowerCase() ?? null;
  const matches = query === null ? [] : people.filter((p) => p.email.toLowerCase().includes(query)).slice(0, maxShown);
  const pick = (person: MentionPerson) => {
    const start = caret - (query?.length ?? 0) - 1;
    const text = `${value.text.slice(0, start)}@${person.email} ${value.text.slice(caret)}`;
    const at = start + person.email.length + 2;
    onChange({ text, mentions: [...new Set([...value.mentions, person.id])] });
    setCaret(at);
    setTimeout(() => {
      box.current?.focus();
      box.current?.setSelectionRange(at, at);
    }, 0);
  };
  return (
    <div className="mention-input">
      <label htmlFor={id}>{label}</label>
      <textarea
        ref={box}
        id={id}
        rows={3}
        maxLength={2000}
        value={value.text}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          setCaret(e.target.selectionStart);
          onChange({ ...value, text: e.target.value });
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && matches.length > 0) {
            e.preventDefault();
            list.current?.querySelector('button')?.focus();
          }
        }}
      />
      <p id={`${id}-hint`} className="comment-hint">
        Type @ to mention someone; they get an e-mail.
      </p>
      {matches.length > 0 ? (
        <ul
          ref={list}
          className="mention-options"
          aria-label="People to mention"
          onKeyDown={(e) => {
            const buttons = [...(list.current?.querySelectorAll('button') ?? [])];
            const i = buttons.indexOf(e.target as HTMLButtonElement);
            const to = { ArrowDown: i + 1, ArrowUp: i - 1 }[e.key];
            if (e.key === 'Escape' || to === -1) {
              e.preventDefault();
              box.current?.focus();
            } else if (to !== undefined) {
              e.preventDefault();
              buttons[Math.min(to, buttons.length - 1)]?.focus();
            }
          }}
        >
          {matches.map((p) => (
            <li key={p.id}>
              <button type="button" onClick={() => pick(p)}>
                Mention {p.email}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
