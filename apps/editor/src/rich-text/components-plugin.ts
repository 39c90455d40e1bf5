import { Fragment, Slice, type Node } from 'prosemirror-model';
import { Plugin } from 'prosemirror-state';

/**
 * Component objects in pasted and dropped content. A component's values live beside the text
 * (the variant's `components`), so an object may come in only when this element knows the
 * component (it was cut from here, or moved by drag) and the text does not already place it
 * (a copy would place one component twice, which the API refuses). Others are left out.
 */
export function componentsPlugin(isKnown: (id: string) => boolean): Plugin {
  return new Plugin({
    props: {
      transformPasted(slice, view) {
        if (view.dragging?.move === true) return slice;
        const placed = new Set<string>();
        view.state.doc.forEach((node) => {
          if (isComponent(node)) placed.add(String(node.attrs['id']));
        });
        const keep = (node: Node) => {
          const id = String(node.attrs['id']);
          return isKnown(id) && !placed.has(id);
        };
        const filtered = filter(slice.content, keep);
        return filtered === slice.content ? slice : Slice.maxOpen(filtered);
      },
    },
  });
}

function isComponent(node: Node): boolean {
  return node.type.name === 'object' && node.attrs['kind'] === 'component';
}

/** The fragment without the component objects `keep` refuses (the same fragment when none). */
function filter(fragment: Fragment, keep: (node: Node) => boolean): Fragment {
  let isChanged = false;
  const out: Node[] = [];
  fragment.forEach((node) => {
    if (isComponent(node) && !keep(node)) {
      isChanged = true;
      return;
    }
    out.push(node);
  });
  return isChanged ? Fragment.fromArray(out) : fragment;
}
