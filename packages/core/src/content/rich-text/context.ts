import type { DefaultTreeAdapterTypes } from 'parse5';
import type { Problems } from '../../model/shared/problems.ts';
import type { RichTextRefs } from './rich-text-types.ts';

export type Parse5Node = DefaultTreeAdapterTypes.ChildNode;
export type Parse5Element = DefaultTreeAdapterTypes.Element;

/** More problems than this in one value are summarised in a single closing problem. */
const problemLimit = 20;

/** State shared by one normalisation: where problems go and what the value references. */
export interface ConvertContext {
  readonly refs: RichTextRefs;
  readonly path: string;
  /** Records a problem of this value; `node` adds its position in the HTML to the message. */
  report(node: Parse5Node | null, message: string): void;
  /** Notes that a resolver refused a reference (the resolver recorded its own problem). */
  markFailed(): void;
  readonly componentIds: string[];
  readonly itemIds: string[];
  readonly assetIds: string[];
}

export interface ContextState extends ConvertContext {
  readonly hasFailed: boolean;
  /** Adds the summary of problems over the limit; call once, at the end. */
  flush(): void;
}

export function createContext(options: {
  readonly problems: Problems;
  readonly path: string;
  readonly refs: RichTextRefs;
}): ContextState {
  let count = 0;
  let isFailed = false;
  const { problems, path } = options;
  return {
    refs: options.refs,
    path,
    componentIds: [],
    itemIds: [],
    assetIds: [],
    get hasFailed() {
      return isFailed || count > 0;
    },
    report(node, message) {
      count += 1;
      if (count <= problemLimit) problems.add(path, message.replace('{at}', at(node)));
    },
    markFailed() {
      isFailed = true;
    },
    flush() {
      if (count > problemLimit) {
        problems.add(path, `…and ${count - problemLimit} more problems in this rich text value.`);
      }
    },
  };
}

/** ` (line 3, column 7)` for a parsed node, or nothing when the parser gave no position. */
export function at(node: Parse5Node | null): string {
  const location = node?.sourceCodeLocation;
  if (location === undefined || location === null) return '';
  return ` (line ${location.startLine}, column ${location.startCol})`;
}

export function isElement(node: Parse5Node): node is Parse5Element {
  return 'tagName' in node;
}

/** HTML's own whitespace; a no-break space is content. */
export function isWhitespace(value: string): boolean {
  return /^[ \t\n\f\r]*$/.test(value);
}

export function attributeOf(element: Parse5Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name && attr.namespace === undefined)?.value;
}

/** Reports every attribute outside `allowed`; true when there was none. */
export function checkAttributes(element: Parse5Element, allowed: readonly string[], context: ConvertContext): boolean {
  let isClean = true;
  for (const attr of element.attrs) {
    if (attr.namespace === undefined && allowed.includes(attr.name)) continue;
    isClean = false;
    const hint =
      allowed.length === 0
        ? `<${element.tagName}> takes no attributes`
        : `<${element.tagName}> takes only ${allowed.join(', ')}`;
    context.report(element, `Unsupported attribute ${attr.name} on <${element.tagName}>{at}; ${hint}.`);
  }
  return isClean;
}

/** A short quote of text for messages. */
export function quote(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 30 ? `${flat.slice(0, 30)}…` : flat);
}

export function pushUnique(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}
