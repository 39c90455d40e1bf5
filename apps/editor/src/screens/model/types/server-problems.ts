import { ApiError } from '../../../api/client.ts';
import type { Draft } from './definition-draft.ts';

/*
 * The server's refusal of a save, placed where it belongs: each validation error of the
 * Management API (the one validator, in core) goes to the element or content group it names, or
 * to the definition. The text is the server's own; only the element's part of the path is left
 * out, since the message stands next to that element.
 *
 * - POST: `path` is `elements[3].maximum_text_length.value`, the draft's element 3.
 * - PATCH: `path` is `[N]` (operation N) and the message starts "Invalid operation with index 'N': "
 *   then, for a problem of the result, `elements[3]…: …` (the element at 3 after the operations,
 *   which is the draft's order); otherwise operation N's own target.
 */

export const definitionKey = 'definition';

export type ProblemMap = ReadonlyMap<string, readonly string[]>;

const itemPath = /^(elements|content_groups)\[(\d+)\]\.?(.*)$/;

function keyAt(draft: Draft, list: string, index: number): string | null {
  const entries = list === 'elements' ? draft.elements : (draft.groups ?? []);
  return entries[index]?.key ?? null;
}

/** The problems of a refused save by key (element or group key, or `definitionKey`); null when `error` is no refusal. */
export function problemsOf(
  error: unknown,
  draft: Draft,
  targets: readonly (string | null)[] | null,
): ProblemMap | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const out = new Map<string, string[]>();
  const put = (key: string | null, text: string) => {
    const k = key ?? definitionKey;
    out.set(k, [...(out.get(k) ?? []), text]);
  };
  const errors = error.body.validation_errors ?? [];
  if (errors.length === 0) put(null, error.body.message);
  for (const problem of errors) {
    let path = problem.path ?? '';
    let message = problem.message;
    const op = /^\[(\d+)\]/.exec(path);
    if (op) {
      message = message.replace(/^Invalid operation with index '\d+': /, '');
      const inner = /^((?:elements|content_groups)\[\d+\][^:]*): (.*)$/s.exec(message);
      if (inner) {
        path = inner[1] as string;
        message = inner[2] as string;
      } else {
        const target = targets?.[Number(op[1])] ?? null;
        put(target, message);
        continue;
      }
    }
    const match = itemPath.exec(path);
    if (!match) {
      put(null, path ? `${path}: ${message}` : message);
      continue;
    }
    const key = keyAt(draft, match[1] as string, Number(match[2]));
    const rest = match[3] as string;
    put(key, rest ? `${rest}: ${message}` : message);
  }
  return out;
}
