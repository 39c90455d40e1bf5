import type { ElementBody } from '@lectern/core';
import type { Node } from 'prosemirror-model';
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { AssetPicker } from '../ui/asset-picker.tsx';
import '../styles/rich-text.css';
import { figureNode, insertBlock, linkAt, objectNode, removeLink, setLink } from './commands.ts';
import { Embed, type RichTextComponent } from './embed-views.tsx';
import { imageRefusal } from './image-limits.ts';
import { readLimits } from './limits.ts';
import { LinkDialog } from './link-dialog.tsx';
import { ComponentTypeDialog, ItemPickerDialog } from './pickers.tsx';
import { TextCounter } from './text-counter.tsx';
import { Toolbar } from './toolbar.tsx';
import { blockMenu, toolbarGroups, type Dialog } from './toolbar-items.ts';
import { useRichTextView } from './use-rich-text-view.ts';
import { useRichTextComments } from '../screens/item/comments/rich-text-comments.tsx';

export type { RichTextComponent };

export interface RichTextElementProps<C extends RichTextComponent = RichTextComponent> {
  /** Id of the editable region (for the form's label and error links). */
  readonly id: string;
  readonly label: string;
  /** The type's rich_text element definition, as the Management API returns it. */
  readonly element: ElementBody;
  readonly value: string;
  readonly components: readonly C[];
  readonly onChange: (next: { value: string; components: C[] }) => void;
  readonly isReadOnly: boolean;
  readonly projectId: string;
  /** A nested form for a component's values (the form supplies it). */
  readonly renderComponent: (component: C, onChange: (next: C) => void) => ReactNode;
  /**
   * Id of an element that names the text (the form's own label); without it the element shows
   * `label` itself.
   */
  readonly labelledBy?: string;
  /** Ids of guidelines and messages describing the text (added to the counter's). */
  readonly describedBy?: string;
}

/** Component ids placed in the document, in order. */
function placedComponents(doc: Node): string[] {
  const ids: string[] = [];
  doc.forEach((node) => {
    if (node.type.name === 'object' && node.attrs['kind'] === 'component') ids.push(String(node.attrs['id']));
  });
  return ids;
}

/**
 * A rich text element of the item editor: a toolbar and the editable text, the element's
 * limitations enforced while typing, images, linked items and components inline (components
 * as nested forms), a live length counter. Each change reports the value and the components
 * the text places (a removed component object drops its component).
 */
export function RichTextElement<C extends RichTextComponent>(props: RichTextElementProps<C>) {
  const { id, label, element, isReadOnly, projectId } = props;
  const limits = useMemo(() => readLimits(element), [element]);
  const labelId = props.labelledBy ?? `${id}-label`;
  const counterId = useId();
  const mount = useRef<HTMLDivElement>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const components = useRef(props.components);
  components.current = props.components;
  // Every component this element has seen, with its latest values: one cut from the text
  // comes back with its values when pasted (components-plugin.ts).
  const known = useRef(new Map<string, C>());
  for (const component of props.components) known.current.set(component.id, component);
  const latestHtml = useRef(props.value);

  const emit = (value: string, list: C[]) => {
    latestHtml.current = value;
    props.onChange({ value, components: list });
  };
  const onDocChange = (html: string, doc: Node) => {
    const list = placedComponents(doc).flatMap((cid) => {
      const found = known.current.get(cid);
      return found === undefined ? [] : [found];
    });
    emit(html, list);
  };
  const attributes = useMemo(
    () => ({
      id,
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-labelledby': labelId,
      'aria-describedby': props.describedBy === undefined ? counterId : `${props.describedBy} ${counterId}`,
      ...(isReadOnly ? { 'aria-readonly': 'true' } : {}),
    }),
    [id, labelId, counterId, isReadOnly, props.describedBy],
  );
  const { view, state, embeds, html } = useRichTextView({
    mount,
    value: props.value,
    limits,
    isReadOnly,
    attributes,
    onDocChange,
    isComponentKnown: (cid) => known.current.has(cid),
    onLinkShortcut: () => {
      if (!isReadOnly) setDialog('link');
    },
  });

  // The value as the editor last wrote it or last opened it (a reset from outside included).
  latestHtml.current = html;
  const toolbar = { state, view, limits, isReadOnly, openDialog: setDialog };
  const comments = useRichTextComments({ view, state, elementId: element.id, isReadOnly });
  const link = state === null ? null : linkAt(state);
  const close = () => {
    setDialog(null);
    // The closing dialog hands focus back with a plain focus() once it has gone, which puts the
    // page's caret at the start of the text (and ProseMirror follows it; a gap cursor after an
    // image was lost that way). Afterwards, the text takes its own selection back.
    const held = view?.state.selection;
    setTimeout(() => {
      if (view === null || view.isDestroyed || held === undefined) return;
      if (view.state.doc === held.$anchor.doc && !view.state.selection.eq(held))
        view.dispatch(view.state.tr.setSelection(held));
      view.focus();
    }, 0);
  };
  const place = (node: Node) => {
    if (view !== null) insertBlock(limits, node)(view.state, view.dispatch);
    close();
  };

  return (
    <div className={`rt-element${isReadOnly ? ' is-read-only' : ''}`}>
      {props.labelledBy === undefined ? (
        <div className="rt-label" id={labelId}>
          {label}
        </div>
      ) : null}
      <Toolbar
        label={`${label}: formatting`}
        controls={id}
        isReadOnly={isReadOnly}
        block={blockMenu(toolbar)}
        groups={comments.toolbar.length > 0 ? [...toolbarGroups(toolbar), comments.toolbar] : toolbarGroups(toolbar)}
      />
      {comments.standalone}
      <div ref={mount} className="rt-mount" />
      <TextCounter id={counterId} html={html} limit={limits.maximumTextLength} />
      {imageError === null ? null : (
        <p role="alert" className="rt-error">
          {imageError}
        </p>
      )}
      {[...embeds.values()].map((entry) =>
        createPortal(
          <Embed
            projectId={projectId}
            node={entry.node}
            isReadOnly={isReadOnly}
            component={
              props.components.find((c) => c.id === entry.node.attrs['id']) ??
              known.current.get(String(entry.node.attrs['id']))
            }
            renderComponent={props.renderComponent}
            onComponentChange={(next) =>
              emit(
                latestHtml.current,
                components.current.map((c) => (c.id === next.id ? next : c)),
              )
            }
            onRemove={() => {
              const pos = entry.getPos();
              if (view !== null && pos !== undefined)
                view.dispatch(view.state.tr.delete(pos, pos + entry.node.nodeSize));
            }}
          />,
          entry.dom,
          entry.key,
        ),
      )}
      <LinkDialog
        projectId={projectId}
        isOpen={dialog === 'link'}
        current={link?.attrs ?? null}
        needsText={state !== null && state.selection.empty && link === null}
        itemTypeIds={limits.itemLinkTypeIds}
        onClose={close}
        onSave={(attrs, text) => {
          if (view !== null) setLink(limits, { ...attrs }, text)(view.state, view.dispatch);
          close();
        }}
        onRemove={() => {
          if (view !== null) removeLink(view.state, view.dispatch);
          close();
        }}
      />
      <AssetPicker
        projectId={projectId}
        isOpen={dialog === 'image'}
        isImagesOnly
        onClose={close}
        onPick={([asset]) => {
          if (asset === undefined) return close();
          const refusal = imageRefusal(asset, limits);
          setImageError(refusal === null ? null : `${asset.title ?? asset.file_name} cannot be inserted: ${refusal}.`);
          if (refusal === null) place(figureNode(asset.id));
          else close();
        }}
      />
      <ItemPickerDialog
        projectId={projectId}
        isOpen={dialog === 'item'}
        title="Insert existing content item"
        typeIds={limits.contentTypeIds}
        onClose={close}
        onPick={(item) => place(objectNode('item', item.id))}
      />
      <ComponentTypeDialog
        projectId={projectId}
        isOpen={dialog === 'component'}
        typeIds={limits.contentTypeIds}
        onClose={close}
        onPick={(type) => {
          // A new component has no values yet; the form fills its elements as the person types.
          const component = { id: crypto.randomUUID(), type: { id: type.id }, elements: [] } as unknown as C;
          known.current.set(component.id, component);
          place(objectNode('component', component.id));
        }}
      />
    </div>
  );
}
