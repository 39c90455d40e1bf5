import { useMemo, useState, type FormEvent } from 'react';
import { ApiError, mapi, request } from '../../../api/client.ts';
import { useContentTypes } from '../../../api/project-model.ts';
import { usePreviewConfiguration, useSpaces, type PreviewConfiguration } from '../settings-kit/model-data.ts';
import {
  FieldProblem,
  problemProps,
  SettingsScreen,
  useMayChange,
  useProjectParams,
  useSave,
} from '../settings-kit/settings-kit.tsx';
import { allSpaces, bodyOf, fieldOfPath, formOf, type PreviewForm } from './preview-config.ts';

/*
 * Environment settings → Preview URLs (`…/model/preview-urls`): the domain of each space, and the
 * preview URL of each content type, for all spaces or one space, with Kontent.ai's macros. The
 * whole configuration is one `PUT /preview-configuration` (reference §2.13); changing it needs
 * the environment permission (Project manager), so others see it read-only.
 */

export function PreviewUrlsScreen() {
  const { projectId } = useProjectParams();
  const config = usePreviewConfiguration(projectId);
  const mayChange = useMayChange(projectId, 'manage_environment');
  return (
    <SettingsScreen
      title="Preview URLs"
      mayChange={mayChange}
      intro="Where a content item opens for preview. Macros: {Codename}, {URLslug}, {ItemId}, {LanguageCodename}."
    >
      {config.isPending && <p role="status">Loading…</p>}
      {config.data && <PreviewForm projectId={projectId} config={config.data} mayChange={mayChange} />}
    </SettingsScreen>
  );
}

function PreviewForm(props: {
  readonly projectId: string;
  readonly config: PreviewConfiguration;
  readonly mayChange: boolean;
}) {
  const types = useContentTypes(props.projectId);
  const spaces = useSpaces(props.projectId);
  const save = useSave(props.projectId);
  const [form, setForm] = useState<PreviewForm>(() => formOf(props.config));
  const [sentPaths, setSentPaths] = useState<ReadonlyMap<string, string>>(new Map());
  const [saved, setSaved] = useState(false);
  const disabled = !props.mayChange;

  const { byField, unplaced } = useMemo(() => {
    const found = new Map<string, string[]>();
    const rest: string[] = [];
    if (save.error instanceof ApiError) {
      const list = save.error.body.validation_errors ?? [];
      for (const v of list) {
        const field = fieldOfPath(sentPaths, v.path);
        if (field) found.set(field, [...(found.get(field) ?? []), v.message]);
        else rest.push(v.path ? `${v.path}: ${v.message}` : v.message);
      }
      rest.unshift(save.error.body.message);
    } else if (save.error) rest.push(String(save.error));
    return { byField: found, unplaced: rest };
  }, [save.error, sentPaths]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { body, pathOf } = bodyOf(form);
    setSentPaths(pathOf);
    setSaved(await save.run(() => request(mapi(props.projectId, '/preview-configuration'), { method: 'PUT', body })));
  };
  const input = (key: string, label: string, value: string, onChange: (v: string) => void, placeholder?: string) => {
    const messages = byField.get(key) ?? [];
    const id = `preview-${key.replace(/[^\w-]/g, '-')}`;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          value={value}
          disabled={disabled}
          placeholder={placeholder}
          onChange={(e) => {
            setSaved(false);
            onChange(e.currentTarget.value);
          }}
          {...problemProps(`${id}-problem`, messages)}
        />
        <FieldProblem id={`${id}-problem`} messages={messages} />
      </div>
    );
  };
  const setPattern = (type: string, space: string, value: string) =>
    setForm((f) => ({ ...f, patterns: { ...f.patterns, [type]: { ...f.patterns[type], [space]: value } } }));
  const spaceList = spaces.data ?? [];

  return (
    <form className="preview-form" aria-label="Preview URLs" onSubmit={(e) => void submit(e)}>
      {spaceList.length > 0 && (
        <section className="settings-section" aria-labelledby="space-domains">
          <h2 id="space-domains">Space domains</h2>
          {spaceList.map((s) =>
            input(
              `domain:${s.id}`,
              `Domain of ${s.name}`,
              form.domains[s.id] ?? '',
              (v) => setForm((f) => ({ ...f, domains: { ...f.domains, [s.id]: v } })),
              'https://www.example.com',
            ),
          )}
        </section>
      )}
      <section className="settings-section" aria-labelledby="type-urls">
        <h2 id="type-urls">Preview URLs of content types</h2>
        {(types.data ?? []).map((t) => (
          <fieldset key={t.id} className="choices preview-type">
            <legend>{t.name}</legend>
            {input(
              `pattern:${t.id}:${allSpaces}`,
              `${t.name}: all spaces`,
              form.patterns[t.id]?.[allSpaces] ?? '',
              (v) => setPattern(t.id, allSpaces, v),
              'https://www.example.com/{URLslug}',
            )}
            {spaceList.map((s) =>
              input(`pattern:${t.id}:${s.id}`, `${t.name}: ${s.name}`, form.patterns[t.id]?.[s.id] ?? '', (v) =>
                setPattern(t.id, s.id, v),
              ),
            )}
          </fieldset>
        ))}
      </section>
      <FieldProblem id="preview-problem" messages={unplaced} />
      {!disabled && (
        <div className="settings-actions">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Save preview URLs
          </button>
          <p role="status">{saved ? 'Saved.' : ''}</p>
        </div>
      )}
    </form>
  );
}
