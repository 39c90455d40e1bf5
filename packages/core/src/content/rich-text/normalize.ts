import { parseFragment, type ParserError } from 'parse5';
import { createContext } from './context.ts';
import { convertTopLevel } from './convert.ts';
import type { NormalizeRichTextOptions, RichTextResult } from './rich-text-types.ts';
import { serializeRichText, type RichTextNode } from './serialize.ts';

/** The stored and returned form of an empty rich text value (reference §3.1, recorded responses). */
export const emptyRichText = '<p><br/></p>';

/**
 * Validates a rich text value and converts it to the response form. Returns null when the value
 * has problems (recorded in `options.problems`); never throws on malformed HTML. The result is a
 * fixed point: normalising its `html` again gives the same value.
 */
export function normalizeRichText(options: NormalizeRichTextOptions): RichTextResult | null {
  const { html, path, problems } = options;
  if (typeof html !== 'string') {
    problems.add(path, `Rich text value must be a string of HTML, not ${describe(html)}.`);
    return null;
  }
  const context = createContext(options);
  const fragment = parseFragment(html, {
    sourceCodeLocationInfo: true,
    onParseError: (error) => {
      const message = parseErrorMessage(error);
      if (message !== null) context.report(null, message);
    },
  });
  const nodes = convertTopLevel(fragment, context);
  context.flush();
  if (context.hasFailed) return null;
  if (isEmpty(nodes)) return { html: emptyRichText, componentIds: [], itemIds: [], assetIds: [] };
  return {
    html: serializeRichText(nodes),
    componentIds: context.componentIds,
    itemIds: context.itemIds,
    assetIds: context.assetIds,
  };
}

/** No blocks, or a single paragraph holding nothing but line breaks and whitespace. */
function isEmpty(nodes: readonly RichTextNode[]): boolean {
  if (nodes.length === 0) return true;
  const [only] = nodes;
  if (nodes.length !== 1 || only === undefined || only.kind !== 'element' || only.name !== 'p') return false;
  return only.children.every((child) =>
    child.kind === 'text' ? /^[ \t\n\f\r]*$/.test(child.value) : child.name === 'br',
  );
}

/**
 * Tokenizer errors that lose or reshape content are refused. Lenient character references
 * (`&amp` without `;`) decode unambiguously and are accepted.
 */
const acceptedParseErrors = new Set([
  'missing-semicolon-after-character-reference',
  'unknown-named-character-reference',
]);

const parseErrorAdvice: Readonly<Record<string, string>> = {
  'eof-in-tag': 'the value ends inside a tag',
  'eof-before-tag-name': 'the value ends with a lone "<"; write &lt; for a literal "<"',
  'invalid-first-character-of-tag-name': 'a "<" does not start a tag; write &lt; for a literal "<"',
  'non-void-html-element-start-tag-with-trailing-solidus':
    'a self-closing tag such as <object … /> does not close the element in HTML; write an end tag, e.g. <object …></object>',
  'duplicate-attribute': 'an attribute is repeated in one tag',
  'missing-attribute-value': 'an attribute has "=" but no value',
  'unexpected-character-in-attribute-name': 'an attribute name contains a quote, "<" or "="',
  'unexpected-character-in-unquoted-attribute-value': 'an unquoted attribute value contains a quote, "<", "=" or "`"',
  'missing-whitespace-between-attributes': 'attributes are not separated by whitespace',
  'end-tag-with-attributes': 'an end tag carries attributes',
  'eof-in-comment': 'the value ends inside a comment',
  'unexpected-null-character': 'the value contains a NUL character',
};

function parseErrorMessage(error: ParserError): string | null {
  if (acceptedParseErrors.has(error.code)) return null;
  const advice = parseErrorAdvice[error.code] ?? error.code.replaceAll('-', ' ');
  return `Malformed HTML at line ${error.startLine}, column ${error.startCol}: ${advice}.`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
