import { useState } from 'react';
import '../../../styles/conflict.css';
import { describeValue, type ElementChange } from './merge.ts';

export interface ConflictView {
  readonly changes: readonly ElementChange[];
  /** Who saved the version in the way (null: unknown, e.g. a Management API key). */
  readonly savedBy: string | null;
}

/**
 * The refused save, element by element (issue 31): what the other person changed, with their
 * value and yours. "Keep both where they don't overlap" saves their elements where only they
 * changed, yours where only you did, and the chosen side where both did.
 */
export function ConflictPanel(props: {
  conflict: ConflictView;
  isSaving: boolean;
  onMerge: (choices: ReadonlyMap<string, 'mine' | 'theirs'>) => void;
  onDiscardMine: () => void;
}) {
  const { changes, savedBy } = props.conflict;
  const [choices, setChoices] = useState<ReadonlyMap<string, 'mine' | 'theirs'>>(new Map());
  const who = savedBy ?? 'Someone (through the Management API or an automation)';
  const theirs = changes.filter((c) => c.side === 'theirs');
  const both = changes.filter((c) => c.side === 'both');
  const mine = changes.filter((c) => c.side === 'mine');
  const choose = (id: string, side: 'mine' | 'theirs') => setChoices(new Map([...choices, [id, side]]));
  const nameOf = (c: ElementChange) => c.element.name ?? c.element.codename;
  return (
    <section className="conflict-panel" role="alert" aria-labelledby="conflict-title">
      <h2 id="conflict-title">Not saved: {who} saved this item while you were editing</h2>
      <p>
        Nothing was overwritten. {theirs.length + both.length} element(s) changed since you opened the item;{' '}
        {both.length > 0
          ? `${both.length} of them you changed too — choose which version to keep.`
          : 'none of them overlap with yours.'}
      </p>
      <table className="conflict-table">
        <caption className="visually-hidden">Changed elements</caption>
        <thead>
          <tr>
            <th scope="col">Element</th>
            <th scope="col">Changed by</th>
            <th scope="col">Their value</th>
            <th scope="col">Your value</th>
            <th scope="col">Keep</th>
          </tr>
        </thead>
        <tbody>
          {[...both, ...theirs, ...mine].map((c) => {
            const name = nameOf(c);
            const choice = choices.get(c.element.id) ?? 'mine';
            return (
              <tr key={c.element.id} className={`conflict-row is-${c.side}`}>
                <th scope="row">{name}</th>
                <td>{c.side === 'both' ? `${who} and you` : c.side === 'theirs' ? who : 'You'}</td>
                <td>{describeValue(c.theirs)}</td>
                <td>{describeValue(c.mine)}</td>
                <td>
                  {c.side === 'both' ? (
                    <fieldset className="conflict-choice">
                      <legend className="visually-hidden">Keep which value of {name}</legend>
                      {(['mine', 'theirs'] as const).map((side) => (
                        <label key={side}>
                          <input
                            type="radio"
                            name={`conflict-${c.element.id}`}
                            checked={choice === side}
                            onChange={() => choose(c.element.id, side)}
                          />{' '}
                          {side === 'mine' ? 'Yours' : 'Theirs'}
                        </label>
                      ))}
                    </fieldset>
                  ) : c.side === 'theirs' ? (
                    'Theirs'
                  ) : (
                    'Yours'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="conflict-actions">
        <button
          type="button"
          className="button-primary"
          disabled={props.isSaving}
          onClick={() => props.onMerge(choices)}
        >
          Keep both where they don't overlap
        </button>
        <button type="button" disabled={props.isSaving} onClick={props.onDiscardMine}>
          Discard my changes and load theirs
        </button>
      </div>
    </section>
  );
}
