/**
 * Text rules every stored string follows, whatever its field: lengths are counted in characters as
 * a user counts them (Unicode code points: an emoji is one character, not two UTF-16 units), and
 * a string holds neither U+0000 (PostgreSQL refuses it in text and jsonb) nor a lone UTF-16
 * surrogate (not Unicode text: it has no UTF-8 form), so PGlite and PostgreSQL store the same.
 */

/** The number of characters (code points) of a string. */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Why a string cannot be stored, or null when it can. */
export function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'contains the character U+0000 (NUL), which cannot be stored. Remove it.';
  if (!text.isWellFormed()) {
    return 'contains a lone UTF-16 surrogate (half of a character such as an emoji), which is not valid Unicode. Send whole characters.';
  }
  return null;
}

/** One string of a JSON document that cannot be stored, with its JSON path (`elements[0].value`). */
export interface UnstorableString {
  readonly path: string | undefined;
  readonly message: string;
}

function join(path: string | undefined, key: string | number): string {
  if (typeof key === 'number') return `${path ?? ''}[${key}]`;
  const safeKey = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  return path === undefined ? safeKey : `${path}.${safeKey}`;
}

type Pending = { readonly path: string | undefined } & ({ readonly node: unknown } | { readonly nameProblem: string });

/**
 * Every string of a parsed JSON value, property names included, that cannot be stored (at most
 * `limit`, in document order). Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findUnstorableStrings(value: unknown, limit = 20): UnstorableString[] {
  const found: UnstorableString[] = [];
  const stack: Pending[] = [{ node: value, path: undefined }];
  while (stack.length > 0 && found.length < limit) {
    const next = stack.pop() as Pending;
    const { path } = next;
    if ('nameProblem' in next) {
      found.push({ path, message: `The property name ${next.nameProblem}` });
      continue;
    }
    const { node } = next;
    if (typeof node === 'string') {
      const problem = unstorableText(node);
      if (problem !== null) found.push({ path, message: problem });
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], path: join(path, i) });
    } else if (node !== null && typeof node === 'object') {
      const entries = Object.entries(node);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        // Pushed after its value, so the name's problem is reported first.
        stack.push({ node: child, path: join(path, key) });
        const problem = unstorableText(key);
        if (problem !== null) stack.push({ nameProblem: problem, path: join(path, key) });
      }
    }
  }
  return found;
}
