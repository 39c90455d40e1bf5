import { useState, type DragEvent } from 'react';
import { mapi, request } from '../../../api/client.ts';
import { useCollections, type Collection } from '../../../api/project-model.ts';
import { errorText } from '../../../ui/error-text.ts';
import { NameCodenameForm } from '../settings-kit/name-codename-form.tsx';
import { SettingsScreen, useMayChange, useProjectParams, sendOps, useSave } from '../settings-kit/settings-kit.tsx';

/*
 * Environment settings → Collections (`/p/:projectId/:language/model/collections`), as in
 * Kontent.ai: the ordered list, each with its name and codename; create, rename, reorder (drag,
 * or "Move up" / "Move down" from the keyboard) and delete (the server refuses a collection that
 * still holds items). Every change is one `PATCH /collections` (reference §6.4).
 */

type Op = Record<string, unknown>;

export function CollectionsScreen() {
  const { projectId } = useProjectParams();
  const collections = useCollections(projectId);
  const mayChange = useMayChange(projectId, 'manage_model');
  const create = useSave(projectId);
  const order = useSave(projectId);
  const [dragged, setDragged] = useState<string | null>(null);
  const patch = (ops: readonly Op[]) => request(mapi(projectId, '/collections'), { method: 'PATCH', body: ops });
  const list = collections.data ?? [];

  const move = (c: Collection, to: Collection, place: 'before' | 'after') =>
    order.run(() => patch([{ op: 'move', reference: { id: c.id }, [place]: { id: to.id } }]));
  const onDrop = (event: DragEvent, target: Collection) => {
    event.preventDefault();
    const from = list.find((c) => c.id === dragged);
    setDragged(null);
    if (!from || from.id === target.id) return;
    void move(from, target, list.indexOf(from) < list.indexOf(target) ? 'after' : 'before');
  };

  return (
    <SettingsScreen
      title="Collections"
      mayChange={mayChange}
      intro="Collections group content items; roles, spaces and workflows can be limited to them."
    >
      {collections.isPending && <p role="status">Loading…</p>}
      {order.error !== null && (
        <p className="field-problem" role="alert">
          {errorText(order.error)}
        </p>
      )}
      <ol className="settings-list" aria-label="Collections">
        {list.map((c, index) => (
          <li
            key={c.id}
            className="settings-row"
            draggable={mayChange}
            onDragStart={() => setDragged(c.id)}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => onDrop(e, c)}
          >
            <CollectionRow projectId={projectId} collection={c} mayChange={mayChange} patch={patch} />
            {mayChange && (
              <div className="settings-actions">
                <button
                  type="button"
                  className="button"
                  disabled={index === 0}
                  aria-label={`Move up ${c.name}`}
                  onClick={() => void move(c, list[index - 1] as Collection, 'before')}
                >
                  Move up
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={index === list.length - 1}
                  aria-label={`Move down ${c.name}`}
                  onClick={() => void move(c, list[index + 1] as Collection, 'after')}
                >
                  Move down
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
      {mayChange && (
        <section className="settings-section" aria-labelledby="new-collection">
          <h2 id="new-collection">Create new collection</h2>
          <NameCodenameForm
            label="New collection"
            submitLabel="Create collection"
            save={create}
            onSubmit={(v) =>
              create.run(() =>
                patch([{ op: 'addInto', value: { name: v.name, ...(v.codename ? { codename: v.codename } : {}) } }]),
              )
            }
          />
        </section>
      )}
    </SettingsScreen>
  );
}

function CollectionRow(props: {
  readonly projectId: string;
  readonly collection: Collection;
  readonly mayChange: boolean;
  readonly patch: (ops: readonly Op[]) => Promise<unknown>;
}) {
  const { collection: c } = props;
  const save = useSave(props.projectId);
  const rename = (name: string, codename: string) => {
    const ops: Op[] = [];
    if (name !== c.name) ops.push({ op: 'replace', reference: { id: c.id }, property_name: 'name', value: name });
    if (codename !== c.codename)
      ops.push({ op: 'replace', reference: { id: c.id }, property_name: 'codename', value: codename });
    return save.run(() => (ops.length ? sendOps(ops, props.patch) : Promise.resolve()));
  };
  return (
    <>
      <NameCodenameForm
        key={`${c.name}/${c.codename}`}
        label={`Collection ${c.name}`}
        submitLabel="Save"
        initial={{ name: c.name, codename: c.codename }}
        save={save}
        disabled={!props.mayChange}
        onSubmit={(v) => rename(v.name, v.codename)}
      >
        {props.mayChange && (
          <button
            type="button"
            className="button button-danger"
            aria-label={`Delete ${c.name}`}
            onClick={() => void save.run(() => props.patch([{ op: 'remove', reference: { id: c.id } }]))}
          >
            Delete
          </button>
        )}
      </NameCodenameForm>
    </>
  );
}
