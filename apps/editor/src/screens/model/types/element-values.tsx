import { useId } from 'react';
import { codenameOf, type Body } from './definition-draft.ts';
import type { TaxonomyJson } from './definition-api.ts';
import type { SettingsContext } from './settings-context.ts';

/*
 * The options of a multiple-choice element and the default values of elements
 * (`default: {global: {value}}`, reference §4): text, number, date & time, multiple choice and
 * taxonomy. Options not saved yet are referred to by codename (filled from the name as typed).
 */

type OnChange = (prop: string, value: unknown) => void;

function optionRef(o: Body): Body {
  return typeof o['id'] === 'string' ? { id: o['id'] } : { codename: o['codename'] };
}

export function OptionsField({ body, onChange }: { body: Body; onChange: OnChange }) {
  const id = useId();
  const options = Array.isArray(body['options']) ? (body['options'] as Body[]) : [];
  const set = (i: number, next: Body) =>
    onChange(
      'options',
      options.map((o, j) => (j === i ? next : o)),
    );
  return (
    <fieldset className="model-choices">
      <legend>Options</legend>
      <ol>
        {options.map((o, i) => (
          <li key={typeof o['id'] === 'string' ? o['id'] : `new-${i}`} className="element-settings">
            <p className="model-field">
              <label htmlFor={`${id}-n${i}`}>Option {i + 1} name</label>
              <input
                id={`${id}-n${i}`}
                type="text"
                value={String(o['name'] ?? '')}
                onChange={(e) => {
                  const name = e.currentTarget.value;
                  const isAuto = typeof o['id'] !== 'string' && o['codename'] === codenameOf(String(o['name'] ?? ''));
                  set(i, { ...o, name, ...(isAuto ? { codename: codenameOf(name) } : {}) });
                }}
              />
            </p>
            <p className="model-field">
              <label htmlFor={`${id}-c${i}`}>Option {i + 1} codename</label>
              <input
                id={`${id}-c${i}`}
                type="text"
                value={String(o['codename'] ?? '')}
                onChange={(e) => set(i, { ...o, codename: e.currentTarget.value })}
              />
            </p>
            <button
              type="button"
              className="button"
              onClick={() =>
                onChange(
                  'options',
                  options.filter((_, j) => j !== i),
                )
              }
            >
              Remove option {i + 1}
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button"
        onClick={() => onChange('options', [...options, { name: '', codename: '' }])}
      >
        Add option
      </button>
    </fieldset>
  );
}

function terms(list: readonly TaxonomyJson[], depth = 0): { id: string; label: string }[] {
  return list.flatMap((t) => [{ id: t.id, label: `${'— '.repeat(depth)}${t.name}` }, ...terms(t.terms, depth + 1)]);
}

/** The element's default value; an empty input removes it (`default: null`). */
export function DefaultField({ body, onChange, c }: { body: Body; onChange: OnChange; c: SettingsContext }) {
  const id = useId();
  const value = ((body['default'] as Body | null | undefined)?.['global'] as Body | undefined)?.['value'];
  const setValue = (v: unknown) =>
    onChange(
      'default',
      v === null || v === '' || (Array.isArray(v) && v.length === 0) ? null : { global: { value: v } },
    );
  const type = body['type'];
  if (type === 'text' || type === 'number' || type === 'date_time') {
    const text =
      type === 'date_time' && typeof value === 'string' ? value.slice(0, 16) : value === undefined ? '' : String(value);
    return (
      <p className="model-field">
        <label htmlFor={id}>Default value</label>
        <input
          id={id}
          type={type === 'number' ? 'number' : type === 'date_time' ? 'datetime-local' : 'text'}
          value={text}
          onChange={(e) => {
            const raw = e.currentTarget.value;
            if (type === 'number') setValue(raw === '' ? null : Number(raw));
            else if (type === 'date_time') setValue(raw === '' ? null : `${raw}:00Z`);
            else setValue(raw);
          }}
        />
      </p>
    );
  }
  const list = Array.isArray(value) ? (value as Body[]) : [];
  const choices =
    type === 'multiple_choice'
      ? (Array.isArray(body['options']) ? (body['options'] as Body[]) : []).map((o) => ({
          ref: optionRef(o),
          label: String(o['name'] ?? ''),
        }))
      : type === 'taxonomy'
        ? terms(
            c.taxonomies.find((t) => t.id === (body['taxonomy_group'] as Body | undefined)?.['id'])?.terms ?? [],
          ).map((t) => ({ ref: { id: t.id } as Body, label: t.label }))
        : [];
  if (choices.length === 0) return null;
  const has = (ref: Body) => list.some((r) => JSON.stringify(r) === JSON.stringify(ref));
  return (
    <fieldset className="model-choices">
      <legend>Default value</legend>
      <ul>
        {choices.map((choice, i) => (
          <li key={`${i}-${JSON.stringify(choice.ref)}`} className="model-check">
            <input
              id={`${id}-${i}`}
              type="checkbox"
              checked={has(choice.ref)}
              onChange={(e) =>
                setValue(
                  e.currentTarget.checked
                    ? [...list, choice.ref]
                    : list.filter((r) => JSON.stringify(r) !== JSON.stringify(choice.ref)),
                )
              }
            />
            <label htmlFor={`${id}-${i}`}>{choice.label || `Option ${i + 1}`}</label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
