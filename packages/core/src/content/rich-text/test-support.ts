/* Helpers for the rich text unit tests (not part of the module's surface). */
import { LecternError, type ValidationProblem } from '@lectern/errors';
import { Problems } from '../../model/shared/problems.ts';
import { normalizeRichText, type RichTextRefs, type RichTextResult } from './index.ts';

/** The ids the test refs hand out for external ids (and codenames) `itemN` and `assetN`. */
export const item = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const asset = (n: number): string => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

export interface RecordingRefs extends RichTextRefs {
  readonly calls: string[];
}

/**
 * Refs for tests: ids pass through, external ids `itemN` / `assetN` resolve to `item(N)` /
 * `asset(N)`, anything else is refused with a problem (as the variant code's refs would).
 */
export function testRefs(options: { readonly hasCodenames?: boolean } = {}): RecordingRefs {
  const calls: string[] = [];
  const resolve = (kind: 'item' | 'asset', key: string, problems: Problems | undefined): string | null => {
    const match = new RegExp(`^${kind}(\\d+)$`).exec(key);
    if (match?.[1] !== undefined) return (kind === 'item' ? item : asset)(Number(match[1]));
    problems?.add('refs', `No ${kind} ${key}.`);
    return null;
  };
  const refs: RecordingRefs = {
    calls,
    resolveItem(ref, path) {
      calls.push(`item ${JSON.stringify(ref)} @${path}`);
      return 'id' in ref ? ref.id : resolve('item', ref.external_id, currentProblems);
    },
    resolveAsset(ref, path) {
      calls.push(`asset ${JSON.stringify(ref)} @${path}`);
      return 'id' in ref ? ref.id : resolve('asset', ref.external_id, currentProblems);
    },
  };
  if (options.hasCodenames === true) {
    return {
      ...refs,
      resolveItemCodename(codename, path) {
        calls.push(`item codename ${codename} @${path}`);
        return resolve('item', codename, currentProblems);
      },
      resolveAssetCodename(codename, path) {
        calls.push(`asset codename ${codename} @${path}`);
        return resolve('asset', codename, currentProblems);
      },
    };
  }
  return refs;
}

let currentProblems: Problems | undefined;

export interface Outcome {
  readonly result: RichTextResult | null;
  readonly problems: readonly ValidationProblem[];
  readonly messages: readonly string[];
}

export function run(html: unknown, refs: RichTextRefs = testRefs()): Outcome {
  const problems = new Problems();
  currentProblems = problems;
  const result = normalizeRichText({ html, path: 'elements[2].value', problems, refs });
  currentProblems = undefined;
  const list = problemsOf(problems);
  return { result, problems: list, messages: list.map((p) => p.message) };
}

/** The html of an accepted value; fails the test with the problems otherwise. */
export function accept(html: unknown, refs?: RichTextRefs): string {
  const outcome = run(html, refs);
  if (outcome.result === null) throw new Error(`refused: ${outcome.messages.join(' | ')}`);
  if (outcome.problems.length > 0) throw new Error(`problems beside a result: ${outcome.messages.join(' | ')}`);
  return outcome.result.html;
}

function problemsOf(problems: Problems): ValidationProblem[] {
  try {
    problems.throwIfAny();
  } catch (error) {
    if (error instanceof LecternError) return [...error.problems];
    throw error;
  }
  return [];
}
