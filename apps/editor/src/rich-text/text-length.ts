/**
 * The length of a rich text value as the Management API measures it for `maximum_text_length`
 * (packages/core/src/content/variants/rich-text-value.ts `textOf`, value-rules.ts, shared/text.ts):
 * tags become spaces, entities one character, whitespace runs one space, trimmed; characters
 * are code points, words runs of non-space. Kept in step so the live counter agrees with Save.
 */
export function textLength(html: string, appliesTo: 'words' | 'characters'): number {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/g, 'x')
    .replace(/\s+/g, ' ')
    .trim();
  if (appliesTo === 'characters') return [...text].length;
  return text === '' ? 0 : text.split(/\s+/).length;
}
