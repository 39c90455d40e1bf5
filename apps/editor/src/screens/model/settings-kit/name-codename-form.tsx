import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { FieldProblem, messagesFor, problemProps, type Save } from './settings-kit.tsx';

export interface NameCodename {
  readonly name: string;
  readonly codename: string;
}

/**
 * A name and a codename with a submit button: the form for creating and renaming collections,
 * spaces, languages, taxonomy groups and terms. An empty codename on creation lets the server
 * derive one from the name (as Kontent.ai does). The server's refusal is shown under the field
 * its path names (`name`, `codename`), anything else under the name.
 */
export function NameCodenameForm(props: {
  readonly label: string;
  readonly submitLabel: string;
  readonly initial?: NameCodename;
  readonly save: Save;
  readonly disabled?: boolean;
  readonly onSubmit: (value: NameCodename) => Promise<boolean>;
  readonly children?: ReactNode;
}) {
  const id = useId();
  const [name, setName] = useState(props.initial?.name ?? '');
  const [codename, setCodename] = useState(props.initial?.codename ?? '');
  const nameProblems = messagesFor(props.save.error, 'name', true).filter(
    (m) => !messagesFor(props.save.error, 'codename').includes(m),
  );
  const codenameProblems = messagesFor(props.save.error, 'codename');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const isDone = await props.onSubmit({ name: name.trim(), codename: codename.trim() });
    if (isDone && !props.initial) {
      setName('');
      setCodename('');
    }
  };
  return (
    <form className="settings-form" aria-label={props.label} onSubmit={(e) => void submit(e)}>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          disabled={props.disabled}
          required
          onChange={(e) => setName(e.currentTarget.value)}
          {...problemProps(`${id}-name-problem`, nameProblems)}
        />
        <FieldProblem id={`${id}-name-problem`} messages={nameProblems} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-codename`}>Codename</label>
        <input
          id={`${id}-codename`}
          className="codename"
          value={codename}
          disabled={props.disabled}
          placeholder={props.initial ? undefined : 'from the name'}
          onChange={(e) => setCodename(e.currentTarget.value)}
          {...problemProps(`${id}-codename-problem`, codenameProblems)}
        />
        <FieldProblem id={`${id}-codename-problem`} messages={codenameProblems} />
      </div>
      {props.children}
      {!props.disabled && (
        <button type="submit" className="button button-primary" disabled={props.save.isPending}>
          {props.submitLabel}
        </button>
      )}
    </form>
  );
}
