import { useId, type DragEvent } from 'react';
import { codenameOf, groupRef, type Body, type Entry } from './definition-draft.ts';
import { KindSettings } from './element-settings.tsx';
import type { SettingsContext } from './settings-context.ts';
import { CheckField, TextField } from './settings-fields.tsx';

/** Kontent.ai's names of the element kinds, in the order of its "add element" menu. */
export const kindLabels: Readonly<Record<string, string>> = {
  text: 'Text',
  rich_text: 'Rich text',
  number: 'Number',
  date_time: 'Date & time',
  asset: 'Asset',
  modular_content: 'Linked items',
  subpages: 'Subpages',
  multiple_choice: 'Multiple choice',
  taxonomy: 'Taxonomy',
  url_slug: 'URL slug',
  custom: 'Custom element',
  guidelines: 'Guidelines',
  snippet: 'Content type snippet',
};

export interface ElementCardProps {
  readonly entry: Entry;
  readonly index: number;
  readonly count: number;
  readonly context: SettingsContext;
  readonly groups: readonly Entry[] | null;
  readonly problems: readonly string[];
  readonly isReadOnly: boolean;
  readonly drag: { readonly dragging: string | null; readonly over: string | null };
  readonly onChange: (key: string, body: Body) => void;
  readonly onMove: (key: string, to: number) => void;
  readonly onRemove: (key: string) => void;
  readonly onDrag: (event: 'start' | 'over' | 'drop' | 'end', key: string, e: DragEvent) => void;
}

export function elementLabel(body: Body, index: number): string {
  const name = typeof body['name'] === 'string' && body['name'] !== '' ? body['name'] : null;
  return (
    name ??
    (typeof body['codename'] === 'string' && body['codename'] !== ''
      ? body['codename']
      : `${kindLabels[String(body['type'])] ?? 'Element'} ${index + 1}`)
  );
}

/**
 * One element of the type: its kind, name and codename (the codename follows the name until it is
 * edited, for an element not saved yet), the common settings, its kind's settings, and the
 * server's refusals for it. Reordered by dragging the handle or with "Move up" / "Move down".
 */
export function ElementCard(props: ElementCardProps) {
  const { entry, index, count, context, groups, isReadOnly } = props;
  const { body } = entry;
  const id = useId();
  const type = String(body['type']);
  const snippetId = (body['snippet'] as Body | null | undefined)?.['id'];
  const snippetName = type === 'snippet' ? context.snippets.find((x) => x.id === snippetId)?.name : undefined;
  const label = snippetName ? `${snippetName} (snippet)` : elementLabel(body, index);
  const isSaved = typeof body['id'] === 'string';
  const change = (prop: string, value: unknown) => {
    const next: Body = { ...body, [prop]: value };
    const isAutoCodename =
      prop === 'name' && !isSaved && (body['codename'] ?? '') === codenameOf(String(body['name'] ?? ''));
    if (isAutoCodename) next['codename'] = codenameOf(String(value));
    props.onChange(entry.key, next);
  };
  const hasName = type !== 'guidelines' && type !== 'snippet';
  const group = body['content_group'] as Body | undefined;
  const groupValue =
    groups?.find((g) => JSON.stringify(groupRef(g)) === JSON.stringify(group) || g.body['id'] === group?.['id'])?.key ??
    '';
  return (
    <li
      className="element-card"
      aria-labelledby={`${id}-title`}
      aria-invalid={props.problems.length > 0 ? true : undefined}
      data-element-key={entry.key}
      data-dragging={props.drag.dragging === entry.key ? 'true' : undefined}
      data-drop={props.drag.over === entry.key && props.drag.dragging !== entry.key ? 'true' : undefined}
      onDragOver={(e) => props.onDrag('over', entry.key, e)}
      onDrop={(e) => props.onDrag('drop', entry.key, e)}
    >
      <div className="element-head">
        {!isReadOnly && (
          <span
            className="drag-handle button"
            draggable
            role="img"
            aria-label={`Drag ${label}`}
            onDragStart={(e) => props.onDrag('start', entry.key, e)}
            onDragEnd={(e) => props.onDrag('end', entry.key, e)}
          >
            ⠿
          </span>
        )}
        <h3 id={`${id}-title`}>{label}</h3>
        <span className="element-kind">{kindLabels[type] ?? type}</span>
        {!isReadOnly && (
          <span className="element-tools">
            <button
              type="button"
              className="button"
              disabled={index === 0}
              onClick={() => props.onMove(entry.key, index - 1)}
            >
              Move up<span className="visually-hidden"> {label}</span>
            </button>
            <button
              type="button"
              className="button"
              disabled={index === count - 1}
              onClick={() => props.onMove(entry.key, index + 1)}
            >
              Move down<span className="visually-hidden"> {label}</span>
            </button>
            <button type="button" className="button button-danger" onClick={() => props.onRemove(entry.key)}>
              Remove<span className="visually-hidden"> {label}</span>
            </button>
          </span>
        )}
      </div>
      {props.problems.length > 0 && (
        <ul className="model-errors" aria-label={`Problems of ${label}`}>
          {props.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <fieldset disabled={isReadOnly}>
        <div className="element-settings">
          {hasName && <TextField body={body} prop="name" label="Name" onChange={change} />}
          {type !== 'snippet' && <TextField body={body} prop="codename" label="Codename" onChange={change} />}
          {hasName && <CheckField body={body} prop="is_required" label="Required" onChange={change} />}
          {hasName && type !== 'rich_text' && (
            <CheckField
              body={body}
              prop="is_non_localizable"
              label="Non-localizable (same value in all languages)"
              onChange={change}
            />
          )}
          {groups && groups.length > 0 && (
            <p className="model-field">
              <label htmlFor={`${id}-group`}>Content group</label>
              <select
                id={`${id}-group`}
                value={groupValue}
                onChange={(e) => {
                  const g = groups.find((x) => x.key === e.currentTarget.value);
                  if (g) change('content_group', groupRef(g));
                }}
              >
                {groups.map((g) => (
                  <option key={g.key} value={g.key}>
                    {String(g.body['name'])}
                  </option>
                ))}
              </select>
            </p>
          )}
        </div>
        {type !== 'snippet' && (
          <TextField body={body} prop="guidelines" label="Guidelines" onChange={change} isMultiline />
        )}
        <div className="element-settings">
          <KindSettings body={body} c={context} onChange={change} />
        </div>
      </fieldset>
    </li>
  );
}
