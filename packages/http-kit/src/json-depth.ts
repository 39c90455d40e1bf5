import { LecternError } from '@lectern/errors';

/**
 * Deepest nesting of arrays and objects a JSON request body may have. JSON.parse takes time
 * super-linear in the nesting (800 KB of `[[[…]]]` held the event loop 150–220 ms), and every
 * walk after it recurses; the deepest body an API takes — a variant with components nested six
 * levels, each with its elements and references — stays under 64.
 */
export const maxJsonDepth = 128;

const open = [0x5b, 0x7b]; // [ {
const close = [0x5d, 0x7d]; // ] }

/**
 * The body's nesting problem as a catalogue error, or null: one pass over the text (or its UTF-8
 * bytes, whose multi-byte sequences never hold these ASCII codes), skipping strings, before the
 * body is parsed. Whether the rest is valid JSON is the parser's business.
 */
export function jsonNestingProblem(body: string | Uint8Array, maxDepth = maxJsonDepth): LecternError | null {
  const at = typeof body === 'string' ? (i: number) => body.charCodeAt(i) : (i: number) => body[i] as number;
  let depth = 0;
  let isInString = false;
  for (let i = 0; i < body.length; i++) {
    const c = at(i);
    if (isInString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) isInString = false;
    } else if (c === 0x22) isInString = true;
    else if (c === open[0] || c === open[1]) {
      if (++depth > maxDepth)
        return new LecternError('INVALID_REQUEST_BODY', {
          problems: [{ message: `The JSON body nests arrays and objects deeper than ${maxDepth} levels.` }],
        });
    } else if (c === close[0] || c === close[1]) depth--;
  }
  return null;
}
