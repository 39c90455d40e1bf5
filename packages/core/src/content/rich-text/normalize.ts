import type { NormalizeRichTextOptions, RichTextResult } from './index.ts';

/** The stored and returned form of an empty rich text value. */
export const emptyRichText = '<p><br></p>';

/**
 * Validates a rich text value and converts it to the response form. Returns null when the value
 * has problems (recorded in `options.problems`).
 */
export function normalizeRichText(options: NormalizeRichTextOptions): RichTextResult | null {
  options.problems.add(options.path, 'Rich text is not supported yet.');
  return null;
}
