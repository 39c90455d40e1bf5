import { useState } from 'react';
import { mapi, request } from '../../../api/client.ts';
import { errorText } from '../../../ui/error-text.ts';
import { useTaxonomies, type Taxonomy } from '../settings-kit/model-data.ts';
import { NameCodenameForm } from '../settings-kit/name-codename-form.tsx';
import { SettingsScreen, useMayChange, useProjectParams, sendOps, useSave } from '../settings-kit/settings-kit.tsx';
import { TermTree } from './term-tree.tsx';

/*
 * Content model → Taxonomies (`…/model/taxonomies`), as in Kontent.ai: the list of taxonomy
 * groups, and the chosen group with its nested terms. Create is `POST /taxonomies` (with no terms),
 * delete `DELETE /taxonomies/{id}`; everything else — the group's name and codename, new terms,
 * renamed, moved and deleted terms — is `PATCH /taxonomies/{id}` in its dialect (reference §6.2).
 */

export function TaxonomiesScreen() {
  const { projectId } = useProjectParams();
  const taxonomies = useTaxonomies(projectId);
  const mayChange = useMayChange(projectId, 'manage_model');
  const create = useSave(projectId);
  const [openId, setOpenId] = useState<string | null>(null);
  const list = taxonomies.data ?? [];
  const open = list.find((t) => t.id === openId) ?? null;

  return (
    <SettingsScreen
      title="Taxonomies"
      mayChange={mayChange}
      intro="Taxonomy groups hold the terms content is tagged with; terms nest under terms."
    >
      {taxonomies.isPending && <p role="status">Loading…</p>}
      <div className="taxonomy-layout">
        <nav aria-label="Taxonomy groups" className="taxonomy-groups">
          <ul className="settings-list">
            {list.map((t) => (
              <li key={t.id}>
                <button
                  type="button"
                  className="link-button"
                  aria-current={t.id === openId ? 'true' : undefined}
                  onClick={() => setOpenId(t.id)}
                >
                  {t.name}
                </button>{' '}
                <span className="codename">{t.codename}</span>
              </li>
            ))}
          </ul>
          {mayChange && <h2 className="settings-subtitle">New taxonomy group</h2>}
          {mayChange && (
            <NameCodenameForm
              label="New taxonomy group"
              submitLabel="Create taxonomy group"
              save={create}
              onSubmit={async (v) => {
                let id: string | null = null;
                const isDone = await create.run(async () => {
                  const body = { name: v.name, ...(v.codename ? { codename: v.codename } : {}), terms: [] };
                  id = (await request<Taxonomy>(mapi(projectId, '/taxonomies'), { method: 'POST', body })).data.id;
                });
                if (isDone) setOpenId(id);
                return isDone;
              }}
            />
          )}
        </nav>
        {open ? (
          <TaxonomyGroup
            key={open.id}
            projectId={projectId}
            taxonomy={open}
            mayChange={mayChange}
            onDeleted={() => setOpenId(null)}
          />
        ) : (
          <p className="hint">Choose a taxonomy group to see its terms.</p>
        )}
      </div>
    </SettingsScreen>
  );
}

function TaxonomyGroup(props: {
  readonly projectId: string;
  readonly taxonomy: Taxonomy;
  readonly mayChange: boolean;
  readonly onDeleted: () => void;
}) {
  const { taxonomy } = props;
  const group = useSave(props.projectId);
  const addTerm = useSave(props.projectId);
  const remove = useSave(props.projectId);
  const patch = (ops: readonly object[]) =>
    request(mapi(props.projectId, `/taxonomies/${taxonomy.id}`), { method: 'PATCH', body: ops });
  const rename = (name: string, codename: string) => {
    const ops: Record<string, unknown>[] = [];
    if (name !== taxonomy.name) ops.push({ op: 'replace', property_name: 'name', value: name });
    if (codename !== taxonomy.codename) ops.push({ op: 'replace', property_name: 'codename', value: codename });
    return group.run(() => (ops.length ? sendOps(ops, patch) : Promise.resolve()));
  };
  return (
    <section className="taxonomy-group" aria-labelledby="taxonomy-group-title">
      <h2 id="taxonomy-group-title">{taxonomy.name}</h2>
      <NameCodenameForm
        key={`${taxonomy.name}/${taxonomy.codename}`}
        label="Taxonomy group"
        submitLabel="Save"
        initial={{ name: taxonomy.name, codename: taxonomy.codename }}
        save={group}
        disabled={!props.mayChange}
        onSubmit={(v) => rename(v.name, v.codename)}
      >
        {props.mayChange && (
          <button
            type="button"
            className="button button-danger"
            onClick={async () => {
              const isDone = await remove.run(() =>
                request(mapi(props.projectId, `/taxonomies/${taxonomy.id}`), { method: 'DELETE' }),
              );
              if (isDone) props.onDeleted();
            }}
          >
            Delete taxonomy group
          </button>
        )}
      </NameCodenameForm>
      {remove.error !== null && (
        <p className="field-problem" role="alert">
          {errorText(remove.error)}
        </p>
      )}
      <h3>Terms</h3>
      <TermTree projectId={props.projectId} terms={taxonomy.terms} mayChange={props.mayChange} patch={patch} />
      {props.mayChange && <h3 className="settings-subtitle">New term</h3>}
      {props.mayChange && (
        <NameCodenameForm
          label="New term"
          submitLabel="Add term"
          save={addTerm}
          onSubmit={(v) =>
            addTerm.run(() =>
              patch([
                { op: 'addInto', value: { name: v.name, ...(v.codename ? { codename: v.codename } : {}), terms: [] } },
              ]),
            )
          }
        />
      )}
    </section>
  );
}
