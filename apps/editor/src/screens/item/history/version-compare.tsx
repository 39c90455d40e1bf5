import { diffWords } from 'diff';
import type { ElementValue, TypeElement } from '../../../elements/model.ts';
import { holdsValue } from '../../../elements/model.ts';
import type { VersionVariantJson } from './history-api.ts';
import { readableValue } from './version-text.ts';

function valueOf(v: VersionVariantJson, id: string): ElementValue | undefined {
  return v.elements.find((e) => e.element.id === id);
}

/** The words removed and added between two readable values (rich text as its text, never HTML). */
export function WordDiff({ before, after }: { before: string; after: string }) {
  return (
    <p className="history-diff">
      {diffWords(before, after).map((part, i) =>
        part.removed ? (
          <del key={i}>{part.value}</del>
        ) : part.added ? (
          <ins key={i}>{part.value}</ins>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </p>
  );
}

/**
 * Two versions element by element, the older first: each changed element with its words removed
 * (struck through) and added (underlined); the unchanged ones listed by name.
 */
export function VersionCompare({
  older,
  newer,
  elements,
}: {
  older: VersionVariantJson;
  newer: VersionVariantJson;
  elements: readonly TypeElement[];
}) {
  const defs = elements.filter((d) => holdsValue(d.type));
  const rows = defs.map((def) => {
    const a = valueOf(older, def.id);
    const b = valueOf(newer, def.id);
    const isChanged = JSON.stringify(a?.value ?? null) !== JSON.stringify(b?.value ?? null);
    return { def, before: readableValue(def, a), after: readableValue(def, b), isChanged };
  });
  const changed = rows.filter((r) => r.isChanged);
  const same = rows.filter((r) => !r.isChanged);
  return (
    <div className="history-compare">
      <p>
        From version {older.version.number} to version {newer.version.number}:{' '}
        {changed.length === 0 ? 'no element changed.' : `${changed.length} of ${rows.length} elements changed.`}
      </p>
      {changed.length > 0 && (
        <dl className="history-elements">
          {changed.map((r) => (
            <div key={r.def.id}>
              <dt>{r.def.name ?? r.def.codename}</dt>
              <dd>
                {r.before === r.after ? (
                  <p className="history-diff">
                    {r.after || '(empty)'} <em>(changed references or settings)</em>
                  </p>
                ) : (
                  <WordDiff before={r.before} after={r.after} />
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {same.length > 0 && (
        <p className="history-unchanged">Unchanged: {same.map((r) => r.def.name ?? r.def.codename).join(', ')}.</p>
      )}
    </div>
  );
}
