import type { ElementValue, TypeElement } from '../../../elements/model.ts';

/** Kontent.ai's rich text objects: a component or a linked item, named in the readable text. */
function objectLabel(el: Element): string {
  return el.getAttribute('data-type') === 'component' ? '[Component]' : '[Linked item]';
}

const blocks = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'TR', 'FIGURE', 'OBJECT', 'PRE', 'BLOCKQUOTE']);

/** The words of rich text HTML, one line per block, never its tags (for a readable diff). */
export function richTextToText(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    if (line.trim() !== '') lines.push(line.replace(/\s+/g, ' ').trim());
    line = '';
  };
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      line += node.textContent ?? '';
      return;
    }
    if (!(node instanceof Element)) return;
    if (node.tagName === 'OBJECT') {
      flush();
      line = objectLabel(node);
      flush();
      return;
    }
    if (node.tagName === 'BR') line += ' ';
    const isBlock = blocks.has(node.tagName);
    if (isBlock) flush();
    node.childNodes.forEach(walk);
    if (node.tagName === 'TD' || node.tagName === 'TH') line += ' | ';
    if (isBlock) flush();
  };
  doc.body.childNodes.forEach(walk);
  flush();
  return lines.join('\n');
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A value as a person reads it: text for text, names for options, counts for references. */
export function readableValue(def: TypeElement, value: ElementValue | undefined): string {
  const raw = value?.value;
  if (raw === null || raw === undefined || raw === '') return '';
  switch (def.type) {
    case 'rich_text':
      return typeof raw === 'string' ? richTextToText(raw) : '';
    case 'number':
    case 'text':
    case 'url_slug':
    case 'custom':
    case 'date_time':
      return String(raw);
    case 'multiple_choice': {
      const options = (def['options'] ?? []) as { id: string; name: string }[];
      return (raw as { id: string }[]).map((r) => options.find((o) => o.id === r.id)?.name ?? r.id).join(', ');
    }
    case 'asset':
      return count((raw as unknown[]).length, 'asset', 'assets');
    case 'modular_content':
    case 'subpages':
      return count((raw as unknown[]).length, 'linked item', 'linked items');
    case 'taxonomy':
      return count((raw as unknown[]).length, 'term', 'terms');
    default:
      return JSON.stringify(raw);
  }
}
