import { useId, useState } from 'react';
import { mapi, request } from '../../../api/client.ts';
import { useLanguages, type Language } from '../../../api/project-model.ts';
import { NameCodenameForm } from '../settings-kit/name-codename-form.tsx';
import {
  FieldProblem,
  messagesFor,
  problemProps,
  SettingsScreen,
  useMayChange,
  useProjectParams,
  sendOps,
  useSave,
  type Save,
} from '../settings-kit/settings-kit.tsx';

/*
 * Environment settings → Localization (`…/model/languages`), with Kontent.ai's rules: the default
 * language is always active and falls back to nothing; every other language has a fallback
 * language (the default one unless chosen) and can be deactivated and activated again (there is
 * no deleting a language). Create is `POST /languages`; every change `PATCH /languages/{id}`
 * with `replace` of `name`, `codename`, `fallback_language` or `is_active` (reference §2.7).
 */

type Op = Readonly<Record<string, unknown>>;

export function LanguagesScreen() {
  const { projectId } = useProjectParams();
  const languages = useLanguages(projectId);
  const mayChange = useMayChange(projectId, 'manage_model');
  const create = useSave(projectId);
  const list = languages.data ?? [];
  const defaultLanguage = list.find((l) => l.is_default);
  const [fallback, setFallback] = useState('');
  const patch = (l: Language, ops: readonly Op[]) =>
    request(mapi(projectId, `/languages/${l.id}`), { method: 'PATCH', body: ops });

  return (
    <SettingsScreen
      title="Localization"
      mayChange={mayChange}
      intro="Languages of the project's content. Content not translated into a language is shown in its fallback language."
    >
      {languages.isPending && <p role="status">Loading…</p>}
      <ul className="settings-list" aria-label="Languages">
        {list.map((l) => (
          <li key={l.id} className="settings-row">
            <LanguageRow language={l} languages={list} projectId={projectId} mayChange={mayChange} patch={patch} />
          </li>
        ))}
      </ul>
      {mayChange && (
        <section className="settings-section" aria-labelledby="new-language">
          <h2 id="new-language">Add language</h2>
          <NameCodenameForm
            label="New language"
            submitLabel="Add language"
            save={create}
            onSubmit={(v) =>
              create.run(() =>
                request(mapi(projectId, '/languages'), {
                  method: 'POST',
                  body: {
                    name: v.name,
                    codename: v.codename,
                    is_active: true,
                    fallback_language: { id: fallback || defaultLanguage?.id },
                  },
                }),
              )
            }
          >
            <FallbackSelect value={fallback || (defaultLanguage?.id ?? '')} languages={list} onChange={setFallback} />
          </NameCodenameForm>
        </section>
      )}
    </SettingsScreen>
  );
}

function FallbackSelect(props: {
  readonly value: string;
  readonly languages: readonly Language[];
  readonly except?: string;
  readonly disabled?: boolean;
  readonly save?: Save;
  readonly onChange: (id: string) => void;
}) {
  const id = useId();
  const problems = messagesFor(props.save?.error, 'fallback_language');
  return (
    <div className="field">
      <label htmlFor={id}>Fallback language</label>
      <select
        id={id}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.currentTarget.value)}
        {...problemProps(`${id}-problem`, problems)}
      >
        {props.languages
          .filter((l) => l.id !== props.except)
          .map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
      </select>
      <FieldProblem id={`${id}-problem`} messages={problems} />
    </div>
  );
}

function LanguageRow(props: {
  readonly projectId: string;
  readonly language: Language;
  readonly languages: readonly Language[];
  readonly mayChange: boolean;
  readonly patch: (l: Language, ops: readonly Op[]) => Promise<unknown>;
}) {
  const { language: l } = props;
  const save = useSave(props.projectId);
  const state = useSave(props.projectId);
  const rename = (name: string, codename: string) => {
    const ops: Op[] = [];
    if (name !== l.name) ops.push({ op: 'replace', property_name: 'name', value: name });
    if (codename !== l.codename) ops.push({ op: 'replace', property_name: 'codename', value: codename });
    return save.run(() => (ops.length ? sendOps(ops, (o) => props.patch(l, o)) : Promise.resolve()));
  };
  const fallbackProblems = messagesFor(state.error, 'fallback_language');
  const stateProblems = messagesFor(state.error, 'is_active', true).filter((m) => !fallbackProblems.includes(m));
  return (
    <>
      <p className="settings-row-title">
        {l.name} {l.is_default && <span className="status-badge">Default</span>}{' '}
        {!l.is_active && <span className="status-badge">Inactive</span>}
      </p>
      <NameCodenameForm
        key={`${l.name}/${l.codename}`}
        label={`Language ${l.name}`}
        submitLabel="Save"
        initial={{ name: l.name, codename: l.codename }}
        save={save}
        disabled={!props.mayChange}
        onSubmit={(v) => rename(v.name, v.codename)}
      />
      {!l.is_default && (
        <FallbackSelect
          value={l.fallback_language.id}
          languages={props.languages}
          except={l.id}
          disabled={!props.mayChange}
          save={state}
          onChange={(id) =>
            void state.run(() =>
              sendOps([{ op: 'replace', property_name: 'fallback_language', value: { id } }], (o) => props.patch(l, o)),
            )
          }
        />
      )}
      {props.mayChange && !l.is_default && (
        <div className="settings-actions">
          <button
            type="button"
            className="button"
            aria-label={`${l.is_active ? 'Deactivate' : 'Activate'} ${l.name}`}
            onClick={() =>
              void state.run(() =>
                sendOps([{ op: 'replace', property_name: 'is_active', value: !l.is_active }], (o) => props.patch(l, o)),
              )
            }
          >
            {l.is_active ? 'Deactivate' : 'Activate'}
          </button>
          <FieldProblem id={`${l.id}-state-problem`} messages={stateProblems} />
        </div>
      )}
    </>
  );
}
