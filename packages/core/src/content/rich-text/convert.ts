import type { DefaultTreeAdapterTypes } from 'parse5';
import {
  checkAttributes,
  isElement,
  isWhitespace,
  quote,
  type ConvertContext,
  type Parse5Element,
  type Parse5Node,
} from './context.ts';
import { convertFigure, convertObject } from './embeds.ts';
import { convertLinkAttributes } from './links.ts';
import type { RichTextElement, RichTextNode } from './serialize.ts';

/**
 * Validates the parsed value against the Management API dialect (SPEC 2.4, reference §3.2) and
 * builds the response form. Allowed structure:
 *   top level   p, h1–h6, ul, ol, table, figure, object (whitespace between them is dropped)
 *   p, h1–h6    inline content
 *   ul, ol      li;  li: inline content and nested ul / ol
 *   table       tbody > tr > td;  td: inline content, or blocks p, h1–h6, ul, ol, figure
 *   inline      text, strong, em, code, sub, sup, a (not nested), br
 * Every refusal is reported; conversion goes on to find the rest, but the result is then unused.
 */

/** Deeper nesting than this is refused (it is never produced by an editor, and bounds recursion). */
const maxDepth = 40;

const headings = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const textBlocks = new Set(['p', ...headings]);
const formatting = new Set(['strong', 'em', 'code', 'sub', 'sup']);
const cellBlocks = new Set([...textBlocks, 'ul', 'ol', 'figure']);
const topLevelList = '<p>, <h1>–<h6>, <ul>, <ol>, <table>, <figure> and <object>';
const inlineList = '<strong>, <em>, <code>, <sub>, <sup>, <a> and <br>';

/** Elements allowed only inside another one. */
const structural: Readonly<Record<string, string>> = {
  li: '<ul> or <ol>',
  tbody: '<table>',
  tr: '<table><tbody>',
  td: '<tr>',
  table: 'the top level (tables do not nest)',
  object: 'the top level',
  img: '<figure>',
};

/** Friendlier advice for common elements outside the dialect. */
const replacements: Readonly<Record<string, string>> = {
  b: 'use <strong>',
  i: 'use <em>',
  th: 'use <td>',
  thead: 'put header rows in <tbody> with <td> cells',
  tfoot: 'put footer rows in <tbody> with <td> cells',
  div: 'wrap text in <p>',
  span: 'remove it and keep its text',
  img: 'place images as <figure data-asset-id="…"></figure>',
};

export function convertTopLevel(
  fragment: DefaultTreeAdapterTypes.DocumentFragment,
  context: ConvertContext,
): RichTextNode[] {
  const out: RichTextNode[] = [];
  for (const node of fragment.childNodes) {
    if (node.nodeName === '#text') {
      const value = textOf(node);
      if (!isWhitespace(value)) {
        context.report(node, `Text ${quote(value)} at top level{at} must be inside a block; wrap it in <p>.`);
      }
      continue;
    }
    if (!isElement(node)) {
      reportNonElement(node, context);
      continue;
    }
    const converted = convertBlock(node, context, 'top', 1);
    if (converted !== null) out.push(converted);
  }
  return out;
}

function convertBlock(
  element: Parse5Element,
  context: ConvertContext,
  place: 'top' | 'cell',
  depth: number,
): RichTextNode | null {
  const name = element.tagName;
  if (depth > maxDepth) {
    context.report(element, `<${name}>{at} is nested more than ${maxDepth} levels deep.`);
    return null;
  }
  if (textBlocks.has(name)) {
    checkAttributes(element, [], context);
    return build(name, convertInlineChildren(element, context, false, depth + 1));
  }
  if (name === 'ul' || name === 'ol') return convertList(element, context, depth);
  if (name === 'figure') return convertFigure(element, context);
  if (name === 'table' && place === 'top') return convertTable(element, context, depth);
  if (name === 'object' && place === 'top') return convertObject(element, context);
  const where = place === 'top' ? 'at top level' : 'in a table cell';
  const allowedHere = place === 'top' ? topLevelList : '<p>, <h1>–<h6>, <ul>, <ol> and <figure>, or inline content';
  let advice: string;
  if (name === 'a' || formatting.has(name) || name === 'br') advice = 'put it inside <p>';
  else if (replacements[name] !== undefined) advice = replacements[name];
  else if (structural[name] !== undefined) advice = `<${name}> belongs in ${structural[name]}`;
  else advice = `allowed ${where}: ${allowedHere}`;
  const isKnown = name === 'a' || name === 'img' || name === 'br' || formatting.has(name) || name in structural;
  const what = isKnown ? `Element <${name}> is not allowed ${where}` : `Unsupported element <${name}> ${where}`;
  context.report(element, `${what}{at}; ${advice}.`);
  return null;
}

function convertList(list: Parse5Element, context: ConvertContext, depth: number): RichTextNode | null {
  if (depth > maxDepth) {
    context.report(list, `<${list.tagName}>{at} is nested more than ${maxDepth} levels deep.`);
    return null;
  }
  checkAttributes(list, [], context);
  const children: RichTextNode[] = [];
  for (const node of list.childNodes) {
    if (node.nodeName === '#text' && isWhitespace(textOf(node))) {
      children.push({ kind: 'text', value: textOf(node) });
    } else if (isElement(node) && node.tagName === 'li') {
      children.push(build('li', convertListItem(node, context, depth + 1)));
    } else {
      reportMisplaced(node, `<${list.tagName}> holds only <li> items`, context);
    }
  }
  return build(list.tagName, children);
}

function convertListItem(item: Parse5Element, context: ConvertContext, depth: number): RichTextNode[] {
  checkAttributes(item, [], context);
  const children: RichTextNode[] = [];
  for (const node of item.childNodes) {
    const converted =
      isElement(node) && (node.tagName === 'ul' || node.tagName === 'ol')
        ? convertList(node, context, depth + 1)
        : convertInline(node, context, 'li', false, depth);
    if (converted !== null) children.push(converted);
  }
  return children;
}

function convertTable(table: Parse5Element, context: ConvertContext, depth: number): RichTextNode | null {
  return convertStructural(table, context, 'tbody', (body) =>
    convertStructural(body, context, 'tr', (row) =>
      convertStructural(row, context, 'td', (cell) => {
        checkAttributes(cell, [], context);
        return build('td', convertCell(cell, context, depth + 4));
      }),
    ),
  );
}

/** An element whose only content is `childName` elements (and whitespace, kept as written). */
function convertStructural(
  element: Parse5Element,
  context: ConvertContext,
  childName: string,
  convertChild: (child: Parse5Element) => RichTextNode | null,
): RichTextNode {
  checkAttributes(element, [], context);
  const children: RichTextNode[] = [];
  for (const node of element.childNodes) {
    if (node.nodeName === '#text' && isWhitespace(textOf(node))) {
      children.push({ kind: 'text', value: textOf(node) });
    } else if (isElement(node) && node.tagName === childName) {
      const converted = convertChild(node);
      if (converted !== null) children.push(converted);
    } else {
      const advice = isElement(node) ? replacements[node.tagName] : undefined;
      const rule = `<${element.tagName}> holds only <${childName}>${advice === undefined ? '' : ` (${advice})`}`;
      reportMisplaced(node, rule, context);
    }
  }
  return build(element.tagName, children);
}

/** A cell holds inline content, or blocks; text beside blocks must be in a block itself. */
function convertCell(cell: Parse5Element, context: ConvertContext, depth: number): RichTextNode[] {
  const hasBlocks = cell.childNodes.some((node) => isElement(node) && cellBlocks.has(node.tagName));
  const children: RichTextNode[] = [];
  for (const node of cell.childNodes) {
    let converted: RichTextNode | null;
    if (!hasBlocks) converted = convertInline(node, context, 'td', false, depth);
    else if (isElement(node) && cellBlocks.has(node.tagName)) converted = convertBlock(node, context, 'cell', depth);
    else if (node.nodeName === '#text' && isWhitespace(textOf(node))) converted = { kind: 'text', value: textOf(node) };
    else {
      reportMisplaced(node, 'a cell that holds blocks must have all its text inside <p> or another block', context);
      converted = null;
    }
    if (converted !== null) children.push(converted);
  }
  return children;
}

function convertInlineChildren(
  element: Parse5Element,
  context: ConvertContext,
  isInLink: boolean,
  depth: number,
): RichTextNode[] {
  const children: RichTextNode[] = [];
  for (const node of element.childNodes) {
    const converted = convertInline(node, context, element.tagName, isInLink, depth);
    if (converted !== null) children.push(converted);
  }
  return children;
}

function convertInline(
  node: Parse5Node,
  context: ConvertContext,
  parent: string,
  isInLink: boolean,
  depth: number,
): RichTextNode | null {
  if (node.nodeName === '#text') return { kind: 'text', value: textOf(node) };
  if (!isElement(node)) {
    reportNonElement(node, context);
    return null;
  }
  const name = node.tagName;
  if (depth > maxDepth) {
    context.report(node, `<${name}>{at} is nested more than ${maxDepth} levels deep.`);
    return null;
  }
  if (formatting.has(name)) {
    checkAttributes(node, [], context);
    return build(name, convertInlineChildren(node, context, isInLink, depth + 1));
  }
  if (name === 'br') {
    checkAttributes(node, [], context);
    return build('br', []);
  }
  if (name === 'a') {
    if (isInLink) {
      context.report(node, `Link <a>{at} is inside another link; links cannot be nested.`);
      return null;
    }
    const attrs = convertLinkAttributes(node, context);
    const children = convertInlineChildren(node, context, true, depth + 1);
    return attrs === null ? null : { kind: 'element', name: 'a', attrs, children };
  }
  const belongs = structural[name];
  const advice =
    replacements[name] ??
    (belongs === undefined
      ? `allowed inside <${parent}>: text, ${inlineList}${parent === 'li' ? ', and nested <ul> or <ol>' : ''}`
      : `<${name}> belongs in ${belongs}`);
  const isKnown = cellBlocks.has(name) || name in structural;
  const what = isKnown
    ? `Element <${name}> is not allowed inside <${parent}>`
    : `Unsupported element <${name}> inside <${parent}>`;
  context.report(node, `${what}{at}; ${advice}.`);
  return null;
}

function reportMisplaced(node: Parse5Node, rule: string, context: ConvertContext): void {
  if (node.nodeName === '#text') context.report(node, `Text ${quote(textOf(node))}{at} is misplaced: ${rule}.`);
  else if (isElement(node)) context.report(node, `Element <${node.tagName}>{at} is misplaced: ${rule}.`);
  else reportNonElement(node, context);
}

function reportNonElement(node: Parse5Node, context: ConvertContext): void {
  if (node.nodeName === '#comment') {
    context.report(node, `HTML comments are not supported in rich text{at}; remove the comment.`);
  } else {
    context.report(node, `Unsupported ${node.nodeName} in rich text{at}.`);
  }
}

function textOf(node: Parse5Node): string {
  return (node as DefaultTreeAdapterTypes.TextNode).value;
}

function build(name: string, children: RichTextNode[]): RichTextElement {
  return { kind: 'element', name, attrs: [], children };
}
