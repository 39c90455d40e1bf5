import { useId } from 'react';
import type { Body } from './definition-draft.ts';
import type { SettingsContext } from './settings-context.ts';
import { CheckField, TextField } from './settings-fields.tsx';

/*
 * Two settings with more to them than one input: the validation regex of text and URL slug
 * elements (`validation_regex: {regex, flags, validation_message, is_active}`), and the text
 * element a URL slug is generated from (`depends_on: {element, snippet?}`).
 */

/** A saved object by id, a new one by codename (the server resolves both). */
export function refOf(body: Body): Body {
  return typeof body['id'] === 'string' ? { id: body['id'] } : { codename: body['codename'] };
}

export function RegexSettings({ body, onChange }: { body: Body; onChange: (prop: string, value: unknown) => void }) {
  const regex = (body['validation_regex'] ?? null) as Body | null;
  const set = (key: string, value: unknown) => {
    const next = { regex: '', flags: null, validation_message: '', is_active: true, ...regex, [key]: value };
    onChange('validation_regex', next.regex === '' && !regex ? null : next);
  };
  const r = regex ?? {};
  return (
    <fieldset className="model-choices">
      <legend>Validation regex</legend>
      <div className="element-settings">
        <TextField body={r} prop="regex" label="Pattern" onChange={set} />
        <TextField body={r} prop="flags" label="Flags" onChange={(p, v) => set(p, v === '' ? null : v)} />
        <TextField body={r} prop="validation_message" label="Validation message" onChange={set} />
        <CheckField body={r} prop="is_active" label="Regex validation active" onChange={set} />
      </div>
    </fieldset>
  );
}

export function DependsOn({
  body,
  c,
  onChange,
}: {
  body: Body;
  c: SettingsContext;
  onChange: (p: string, v: unknown) => void;
}) {
  const id = useId();
  const own = c.elements
    .filter((e) => e.body['type'] === 'text')
    .map((e) => ({ value: { element: refOf(e.body) }, label: String(e.body['name'] ?? e.body['codename']) }));
  const fromSnippets = c.elements
    .filter((e) => e.body['type'] === 'snippet')
    .flatMap((e) => {
      const snippet = c.snippets.find((s) => s.id === (e.body['snippet'] as Body | undefined)?.['id']);
      return (snippet?.elements ?? [])
        .filter((x) => x['type'] === 'text')
        .map((x) => ({
          value: { element: { id: x['id'] }, snippet: { id: snippet?.id } },
          label: `${snippet?.name}: ${String(x['name'])}`,
        }));
    });
  const options = [...own, ...fromSnippets];
  const current = JSON.stringify(body['depends_on'] ?? null);
  return (
    <p className="model-field">
      <label htmlFor={id}>Auto-generate from</label>
      <select
        id={id}
        value={current}
        onChange={(e) => onChange('depends_on', JSON.parse(e.currentTarget.value) as unknown)}
      >
        <option value="null">Choose a text element</option>
        {options.map((o) => (
          <option key={JSON.stringify(o.value)} value={JSON.stringify(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    </p>
  );
}
