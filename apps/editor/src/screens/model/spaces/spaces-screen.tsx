import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { mapi, request } from '../../../api/client.ts';
import { useCollections, type Collection } from '../../../api/project-model.ts';
import { useSpaces, type Space } from '../settings-kit/model-data.ts';
import {
  FieldProblem,
  messagesFor,
  problemProps,
  SettingsScreen,
  useMayChange,
  useProjectParams,
  sendOps,
  useSave,
} from '../settings-kit/settings-kit.tsx';

/*
 * Environment settings → Spaces (`…/model/spaces`): each space's name, codename, Web Spotlight
 * root item (by the item's codename) and collections. Create is `POST /spaces`, a change
 * `PATCH /spaces/{id}` with `replace` operations, delete `DELETE /spaces/{id}` (reference §2.9).
 */

export function SpacesScreen() {
  const { projectId } = useProjectParams();
  const spaces = useSpaces(projectId);
  const collections = useCollections(projectId);
  const mayChange = useMayChange(projectId, 'manage_model');
  return (
    <SettingsScreen
      title="Spaces"
      mayChange={mayChange}
      intro="A space is a website or channel: its collections, and the item at the root of its Web Spotlight page tree."
    >
      {spaces.isPending && <p role="status">Loading…</p>}
      <ul className="settings-list" aria-label="Spaces">
        {(spaces.data ?? []).map((s) => (
          <li key={s.id} className="settings-row">
            <SpaceForm
              key={JSON.stringify(s)}
              projectId={projectId}
              space={s}
              collections={collections.data ?? []}
              mayChange={mayChange}
            />
          </li>
        ))}
      </ul>
      {mayChange && (
        <section className="settings-section" aria-labelledby="new-space">
          <h2 id="new-space">Create new space</h2>
          <SpaceForm projectId={projectId} space={null} collections={collections.data ?? []} mayChange />
        </section>
      )}
    </SettingsScreen>
  );
}

/** The codename of the item with `id` (for the root item field), or the id when it cannot be read. */
function useItemCodename(projectId: string, id: string | undefined) {
  return useQuery({
    queryKey: ['model', projectId, 'item-codename', id],
    enabled: id !== undefined,
    queryFn: async () =>
      (await request<{ codename: string }>(mapi(projectId, `/items/${id}`)).catch(() => ({ data: { codename: id } })))
        .data.codename ?? '',
  });
}

function SpaceForm(props: {
  readonly projectId: string;
  readonly space: Space | null;
  readonly collections: readonly Collection[];
  readonly mayChange: boolean;
}) {
  const { space } = props;
  const id = useId();
  const save = useSave(props.projectId);
  const rootCodename = useItemCodename(props.projectId, space?.web_spotlight_root_item?.id);
  const [name, setName] = useState(space?.name ?? '');
  const [codename, setCodename] = useState(space?.codename ?? '');
  const [root, setRoot] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>(space?.collections.map((c) => c.id) ?? []);
  const rootValue = root ?? rootCodename.data ?? '';
  const problems = (field: string, isCatchAll = false) => messagesFor(save.error, field, isCatchAll);
  const rootRef = rootValue.trim() ? { codename: rootValue.trim() } : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const collections = chosen.map((c) => ({ id: c }));
    const isDone = await save.run(() =>
      space
        ? sendOps(
            [
              { op: 'replace', property_name: 'name', value: name.trim() },
              { op: 'replace', property_name: 'codename', value: codename.trim() },
              { op: 'replace', property_name: 'web_spotlight_root_item', value: rootRef },
              { op: 'replace', property_name: 'collections', value: collections },
            ],
            (body) => request(mapi(props.projectId, `/spaces/${space.id}`), { method: 'PATCH', body }),
          )
        : request(mapi(props.projectId, '/spaces'), {
            method: 'POST',
            body: { name: name.trim(), codename: codename.trim(), web_spotlight_root_item: rootRef, collections },
          }),
    );
    if (isDone && !space) {
      setName('');
      setCodename('');
      setRoot(null);
      setChosen([]);
    }
  };
  const placed = ['codename', 'web_spotlight_root_item', 'collections'].flatMap((f) => problems(f));
  const field = (key: string, label: string, value: string, set: (v: string) => void, isCatchAll = false) => {
    const messages = isCatchAll ? problems(key, true).filter((m) => !placed.includes(m)) : problems(key);
    return (
      <div className="field">
        <label htmlFor={`${id}-${key}`}>{label}</label>
        <input
          id={`${id}-${key}`}
          value={value}
          disabled={!props.mayChange}
          onChange={(e) => set(e.currentTarget.value)}
          {...problemProps(`${id}-${key}-problem`, messages)}
        />
        <FieldProblem id={`${id}-${key}-problem`} messages={messages} />
      </div>
    );
  };
  return (
    <form
      className="settings-form"
      aria-label={space ? `Space ${space.name}` : 'New space'}
      onSubmit={(e) => void submit(e)}
    >
      {field('name', 'Name', name, setName, true)}
      {field('codename', 'Codename', codename, setCodename)}
      {field('web_spotlight_root_item', 'Web Spotlight root item (codename)', rootValue, setRoot)}
      <fieldset className="choices">
        <legend>Collections</legend>
        {props.collections.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              disabled={!props.mayChange}
              checked={chosen.includes(c.id)}
              onChange={(e) => {
                const isOn = e.currentTarget.checked;
                setChosen((now) => (isOn ? [...now, c.id] : now.filter((x) => x !== c.id)));
              }}
            />{' '}
            {c.name}
          </label>
        ))}
        <FieldProblem id={`${id}-collections-problem`} messages={problems('collections')} />
      </fieldset>
      {props.mayChange && (
        <div className="settings-actions">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {space ? 'Save' : 'Create space'}
          </button>
          {space && (
            <button
              type="button"
              className="button button-danger"
              aria-label={`Delete ${space.name}`}
              onClick={() =>
                void save.run(() => request(mapi(props.projectId, `/spaces/${space.id}`), { method: 'DELETE' }))
              }
            >
              Delete
            </button>
          )}
        </div>
      )}
    </form>
  );
}
