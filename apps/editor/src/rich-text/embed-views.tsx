import type { Node } from 'prosemirror-model';
import type { EditorView, NodeView } from 'prosemirror-view';
import type { ReactNode } from 'react';
import { thumbnailUrl } from '../api/assets.ts';
import { useAsset, useItem, useTypes } from './rich-text-api.ts';

/**
 * Images, linked items and components are atoms of the document whose content React renders:
 * each node view owns an element that the editor component fills through a portal (so the
 * nested component form shares the app's context: query cache, routing).
 */
export interface EmbedEntry {
  readonly key: string;
  readonly dom: HTMLElement;
  readonly node: Node;
  readonly getPos: () => number | undefined;
}

export type EmbedRegistry = (key: string, entry: EmbedEntry | null) => void;

let counter = 0;

export function embedNodeView(register: EmbedRegistry) {
  return (node: Node, _view: EditorView, getPos: () => number | undefined): NodeView => {
    counter += 1;
    const key = `embed-${String(counter)}`;
    const dom = document.createElement('div');
    dom.className = `rt-embed rt-embed-${node.type.name}`;
    dom.contentEditable = 'false';
    register(key, { key, dom, node, getPos });
    let current = node;
    return {
      dom,
      update(next) {
        if (next.type !== current.type || next.attrs['id'] !== current.attrs['id']) return false;
        current = next;
        register(key, { key, dom, node: next, getPos });
        return true;
      },
      selectNode: () => dom.classList.add('is-selected'),
      deselectNode: () => dom.classList.remove('is-selected'),
      // Typing and clicking inside a component's form belong to the form, not to the text.
      stopEvent: (event) =>
        event.target instanceof globalThis.Node && event.target !== dom && dom.contains(event.target),
      ignoreMutation: () => true,
      destroy: () => register(key, null),
    };
  };
}

/** A component as the variant's `components` hold it (its element values are the form's business). */
export interface RichTextComponent {
  readonly id: string;
  readonly type: { readonly id: string };
  readonly elements: readonly unknown[];
}

interface EmbedProps<C extends RichTextComponent = RichTextComponent> {
  readonly projectId: string;
  readonly node: Node;
  readonly isReadOnly: boolean;
  readonly onRemove: () => void;
  readonly component: C | undefined;
  readonly renderComponent: (component: C, onChange: (next: C) => void) => ReactNode;
  readonly onComponentChange: (next: C) => void;
}

export function Embed<C extends RichTextComponent>(props: EmbedProps<C>) {
  const name = props.node.type.name;
  const common = { projectId: props.projectId, isReadOnly: props.isReadOnly, onRemove: props.onRemove };
  if (name === 'figure') return <FigureView {...common} assetId={String(props.node.attrs['assetId'])} />;
  if (props.node.attrs['kind'] === 'component') return <ComponentView {...props} />;
  return <LinkedItemView {...common} itemId={String(props.node.attrs['id'])} />;
}

function RemoveButton({ label, onRemove, isReadOnly }: { label: string; onRemove: () => void; isReadOnly: boolean }) {
  if (isReadOnly) return null;
  return (
    <button type="button" className="rt-embed-remove button-quiet" onClick={onRemove}>
      Remove <span className="visually-hidden">{label}</span>
    </button>
  );
}

interface AtomProps {
  readonly projectId: string;
  readonly isReadOnly: boolean;
  readonly onRemove: () => void;
}

function FigureView({ projectId, assetId, isReadOnly, onRemove }: AtomProps & { assetId: string }) {
  const asset = useAsset(projectId, assetId);
  const name = asset.data ? (asset.data.title ?? asset.data.file_name) : 'image';
  return (
    <figure className="rt-figure">
      {asset.data ? (
        <img src={thumbnailUrl(asset.data, 640, 360).replace('&fit=crop', '&fit=clip')} alt={asset.data.title ?? ''} />
      ) : (
        <span className="rt-embed-pending">
          {asset.isError ? `Asset ${assetId} is not available.` : 'Loading image…'}
        </span>
      )}
      <figcaption>
        <span>{name}</span>
        <RemoveButton label={`image ${name}`} onRemove={onRemove} isReadOnly={isReadOnly} />
      </figcaption>
    </figure>
  );
}

function LinkedItemView({ projectId, itemId, isReadOnly, onRemove }: AtomProps & { itemId: string }) {
  const item = useItem(projectId, itemId);
  const types = useTypes(projectId);
  const name = item.data?.name ?? (item.isError ? `Item ${itemId} is not available` : 'Loading…');
  const type = types.data?.find((t) => t.id === item.data?.type.id)?.name;
  return (
    <div className="rt-linked-item">
      <span className="rt-embed-kind">Linked item</span>
      <span className="rt-linked-item-name">{name}</span>
      {type === undefined ? null : <span className="rt-embed-type">{type}</span>}
      <RemoveButton label={`linked item ${name}`} onRemove={onRemove} isReadOnly={isReadOnly} />
    </div>
  );
}

function ComponentView<C extends RichTextComponent>(props: EmbedProps<C>) {
  const types = useTypes(props.projectId);
  const { component } = props;
  const typeName = types.data?.find((t) => t.id === component?.type.id)?.name ?? 'Component';
  return (
    <section className="rt-component" aria-label={`Component: ${typeName}`}>
      <header className="rt-component-header">
        <span className="rt-embed-kind">Component</span>
        <span className="rt-embed-type">{typeName}</span>
        <RemoveButton label={`component ${typeName}`} onRemove={props.onRemove} isReadOnly={props.isReadOnly} />
      </header>
      {component === undefined ? (
        <p role="alert">This component has no values in the item (its entry in components is missing).</p>
      ) : (
        props.renderComponent(component, props.onComponentChange)
      )}
    </section>
  );
}
