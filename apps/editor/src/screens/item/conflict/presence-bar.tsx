import type { ReactNode } from 'react';
import type { TypeElement } from '../../../elements/model.ts';
import '../../../styles/conflict.css';
import type { PresencePerson } from './use-presence.ts';

/** Up to two initials of a name ("Ann Smith" → "AS"; an e-mail → its first letter). */
export function initialsOf(name: string): string {
  // An e-mail (a person without a name) gives the initials of its local part.
  const words = (name.includes('@') ? (name.split('@')[0] ?? name) : name).split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[1]] : [words[0]];
  return letters.map((w) => (w?.[0] ?? '?').toUpperCase()).join('');
}

function Avatar({ name }: { name: string }) {
  return (
    <span className="presence-avatar" aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}

/** Who else has this item open, with the element each is editing (named as in the form). */
export function PresenceBar({ others, defs }: { others: readonly PresencePerson[]; defs: readonly TypeElement[] }) {
  if (others.length === 0) return null;
  const nameOf = (codename: string) => {
    const d = defs.find((e) => e.codename === codename);
    return d?.name ?? codename;
  };
  return (
    <section className="presence-bar" aria-label="Also editing this item">
      <h2 className="presence-title">Also here</h2>
      <ul className="presence-people">
        {others.map((p) => (
          <li key={p.user_id} className="presence-person">
            <Avatar name={p.name} />
            <span>
              <span className="presence-name">{p.name}</span>
              {p.element ? <span className="presence-where"> editing {nameOf(p.element)}</span> : null}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A marker per element someone else is editing, by element id (for `ElementsForm`'s `badges`). */
export function presenceMarkers(
  others: readonly PresencePerson[],
  defs: readonly TypeElement[],
): ReadonlyMap<string, ReactNode> {
  const byElement = new Map<string, string[]>();
  for (const p of others) {
    const def = p.element ? defs.find((d) => d.codename === p.element) : undefined;
    if (def) byElement.set(def.id, [...(byElement.get(def.id) ?? []), p.name]);
  }
  return new Map(
    [...byElement].map(([id, names]) => [
      id,
      <span key={id} className="presence-marker">
        {names.map((n) => (
          <Avatar key={n} name={n} />
        ))}
        <span>{names.join(', ')} editing</span>
      </span>,
    ]),
  );
}
