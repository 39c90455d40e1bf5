import { useState } from 'react';
import { useLocation } from 'wouter';
import type { VariantJson } from '../../elements/model.ts';
import type { LanguageJson } from './queries.ts';

/**
 * The language the variant is in, and a switch to the item in another language (each marked
 * when it has no variant yet). The navigation guard asks first while there are unsaved changes.
 */
export function LanguageSwitch(props: {
  projectId: string;
  itemId: string;
  language: LanguageJson;
  languages: readonly LanguageJson[];
  variants: readonly VariantJson[];
}) {
  const [, navigate] = useLocation();
  const has = new Set(props.variants.map((v) => v.language.id));
  return (
    <div className="language-switch">
      <label htmlFor="item-language">Language</label>
      <select
        id="item-language"
        value={props.language.codename}
        onChange={(e) => navigate(`/p/${props.projectId}/${e.target.value}/items/${props.itemId}`)}
      >
        {props.languages
          .filter((l) => l.is_active || l.id === props.language.id)
          .map((l) => (
            <option key={l.id} value={l.codename}>
              {l.name}
              {has.has(l.id) ? '' : ' (not translated)'}
            </option>
          ))}
      </select>
    </div>
  );
}

/** The language whose content a missing variant falls back to (following the chain). */
export function fallbackOf(
  language: LanguageJson,
  languages: readonly LanguageJson[],
  variants: readonly VariantJson[],
): LanguageJson | null {
  const has = new Set(variants.map((v) => v.language.id));
  const seen = new Set<string>([language.id]);
  let current = language;
  while (current.fallback_language && !seen.has(current.fallback_language.id)) {
    const next = languages.find((l) => l.id === current.fallback_language?.id);
    if (!next) return null;
    if (has.has(next.id)) return next;
    seen.add(next.id);
    current = next;
  }
  return null;
}

/**
 * Shown when the item has no variant in the chosen language: says so and what the content falls
 * back to, and offers "Create from <language>" (copies that variant's values) or starting empty.
 */
export function MissingVariant(props: {
  language: LanguageJson;
  languages: readonly LanguageJson[];
  variants: readonly VariantJson[];
  canEdit: boolean;
  onCreateFrom: (source: VariantJson) => Promise<void>;
  onStartEmpty: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const fallback = fallbackOf(props.language, props.languages, props.variants);
  const nameOf = (id: string) => props.languages.find((l) => l.id === id)?.name ?? id;
  return (
    <section className="missing-variant" aria-labelledby="missing-variant-title">
      <h2 id="missing-variant-title">This item is not translated to {props.language.name} yet</h2>
      <p>
        {fallback
          ? `Until it is, its content falls back to ${fallback.name}.`
          : 'It has no content in this language, and no fallback language has it either.'}
      </p>
      {props.canEdit ? (
        <div className="missing-variant-actions">
          {props.variants.map((v) => (
            <button
              key={v.language.id}
              type="button"
              disabled={isBusy}
              onClick={() => {
                setBusy(true);
                setError(null);
                props
                  .onCreateFrom(v)
                  .catch((e: unknown) => setError(e instanceof Error ? e.message : 'The variant could not be created.'))
                  .finally(() => setBusy(false));
              }}
            >
              Create from {nameOf(v.language.id)}
            </button>
          ))}
          <button type="button" disabled={isBusy} onClick={props.onStartEmpty}>
            Start empty
          </button>
        </div>
      ) : (
        <p>You can't create content in this project.</p>
      )}
      {error ? <p className="element-error">{error}</p> : null}
    </section>
  );
}
