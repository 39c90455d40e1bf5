/**
 * The clean tree the validator builds and its serialisation in the Management API's response
 * form. Serialisation is a pure function of the tree, so equal trees give equal strings.
 */

export interface RichTextText {
  readonly kind: 'text';
  readonly value: string;
}

export interface RichTextElement {
  readonly kind: 'element';
  readonly name: string;
  /** In output order; the builder decides the order, the serialiser keeps it. */
  readonly attrs: readonly (readonly [name: string, value: string])[];
  readonly children: readonly RichTextNode[];
}

export type RichTextNode = RichTextText | RichTextElement;

/** Elements written without an end tag. `br` is written `<br/>`, `img` as `<img …>` (recorded responses). */
const voidElements = new Set(['br', 'img']);

export function serializeRichText(nodes: readonly RichTextNode[]): string {
  let out = '';
  for (const node of nodes) out += serializeNode(node);
  return out;
}

function serializeNode(node: RichTextNode): string {
  if (node.kind === 'text') return escapeText(node.value);
  let open = `<${node.name}`;
  for (const [name, value] of node.attrs) open += ` ${name}="${escapeAttribute(value)}"`;
  if (node.name === 'br') return `${open}/>`;
  if (voidElements.has(node.name)) return `${open}>`;
  return `${open}>${serializeRichText(node.children)}</${node.name}>`;
}

/** `&nbsp;` stays visible as an entity, as in recorded responses. */
function escapeText(value: string): string {
  return value.replace(/[&<>\u00a0]/g, (c) => entities[c] ?? c);
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"\u00a0]/g, (c) => entities[c] ?? c);
}

const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\u00a0': '&nbsp;',
};
