/**
 * Rich text values (SPEC 2.4, reference §3.2). This file fixes the interface the variant code
 * calls; the implementation lives beside it.
 */

export type { NormalizeRichTextOptions, RichTextRefs, RichTextResult } from './rich-text-types.ts';
export { normalizeRichText, emptyRichText } from './normalize.ts';
