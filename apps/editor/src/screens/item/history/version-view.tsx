import type { TypeElement } from '../../../elements/model.ts';
import { holdsValue } from '../../../elements/model.ts';
import type { VersionVariantJson } from './history-api.ts';
import { readableValue } from './version-text.ts';

/** A version read-only: every element's value as text (rich text without its tags). */
export function VersionView({ version, elements }: { version: VersionVariantJson; elements: readonly TypeElement[] }) {
  return (
    <dl className="history-elements">
      {elements
        .filter((d) => holdsValue(d.type))
        .map((def) => {
          const text = readableValue(
            def,
            version.elements.find((e) => e.element.id === def.id),
          );
          return (
            <div key={def.id}>
              <dt>{def.name ?? def.codename}</dt>
              <dd className="history-value">{text === '' ? <em>(empty)</em> : text}</dd>
            </div>
          );
        })}
    </dl>
  );
}
