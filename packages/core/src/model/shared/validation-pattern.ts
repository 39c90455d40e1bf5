import { RE2JS } from 're2js';
import { runBounded } from './bounded-run.ts';

/*
 * `validation_regex` patterns (JavaScript syntax and flags, as Kontent.ai takes them) run on
 * RE2 (the pure-JS port `re2js`): matching time is linear in the text, whatever the pattern, so a
 * pattern such as `^(a+)+$` cannot hold the event loop. Each pattern is translated to RE2 syntax
 * keeping its JavaScript meaning (`\uXXXX`, named groups, `[^]`, JavaScript's `\s` and `.`).
 *
 * What RE2 cannot run (lookahead, lookbehind, backreferences, repeats over 1,000) is accepted, as
 * Kontent.ai accepts it (its own documented Web URL example has a lookahead, and data-ops restores
 * such types), and runs on JavaScript's own engine under two bounds: each match may take
 * `patternTimeoutMs`, and all such matches of the process together `backtrackingBudgetMs` per
 * second, so no number of elements or components in one request can hold the event loop longer.
 * Sizes are checked first, in linear time.
 */

/** Longest `regex` accepted, in characters (Kontent.ai's own e-mail example has about 430). */
export const maxPatternLength = 1_000;
/**
 * Longest value checked against a pattern, in UTF-16 code units; a longer one is refused. Twice a
 * text element's 100,000 characters, so a value the element takes is never too long for its pattern.
 */
export const maxPatternTextLength = 200_000;
/** Time one match may take, in ms, before it is abandoned (a value of 100,000 characters takes a few). */
export const patternTimeoutMs = 50;
/**
 * Time JavaScript's backtracking engine may run in all, per second of wall time, across the
 * process: a token bucket that holds at most this much. A request that finds it empty gets
 * 'timed_out' for its lookaround patterns at once (and may try again); RE2 patterns never wait.
 */
export const backtrackingBudgetMs = 50;

let budgetMs = backtrackingBudgetMs;
let budgetAt = performance.now();

/** Milliseconds left in the bucket, refilled at `backtrackingBudgetMs` per second. */
function backtrackingBudget(): number {
  const now = performance.now();
  budgetMs = Math.min(backtrackingBudgetMs, budgetMs + ((now - budgetAt) * backtrackingBudgetMs) / 1_000);
  budgetAt = now;
  return budgetMs;
}

/**
 * Time one compilation may take, in ms. The pattern's length and RE2's own program-size limit
 * bound it well below this (a 1,000-character pattern compiles in tens of ms on a loaded
 * machine); this is only the last resort, set wide so that load never refuses a valid pattern.
 */
const compileTimeoutMs = 1_000;

/** JavaScript's `\s`, for a character class (RE2's `\s` is ASCII whitespace only). */
const jsSpace = String.raw`\t\n\x0B\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF`;
/** JavaScript's `.` without the `s` flag (RE2's excludes `\n` only). */
const jsDot = String.raw`[^\n\r\u2028\u2029]`;
/** Letters that are escapes in JavaScript without `u`/`v`; any other escaped letter is the letter itself. */
const jsEscapeLetters = new Set('bBdDsSwWfnrtvcxuk');

/**
 * Rewrites the escapes and `.` whose JavaScript meaning RE2 spells differently, before re2js's
 * own translation (which handles `\u`, `\c`, named groups and `[^]`). One linear pass.
 */
function jsMeaning(regex: string, flags: string): string {
  const isUnicode = flags.includes('u') || flags.includes('v');
  const isDotAll = flags.includes('s');
  let out = '';
  let isInClass = false;
  for (let i = 0; i < regex.length; i++) {
    const ch = regex[i] as string;
    if (ch === '\\') {
      const next = regex[i + 1] ?? '';
      i += 1;
      if (next === 's') out += isInClass ? jsSpace : `[${jsSpace}]`;
      else if (next === 'S' && !isInClass) out += `[^${jsSpace}]`;
      else if (!isUnicode && /^[a-zA-Z]$/.test(next) && !jsEscapeLetters.has(next)) out += next;
      else out += `\\${next}`;
    } else if (isInClass) {
      if (ch === ']') isInClass = false;
      out += ch;
    } else if (ch === '[') {
      isInClass = true;
      out += ch;
      if (regex[i + 1] === '^') out += regex[++i];
      // `[]` and `[^]`: the class ends at once, as in JavaScript.
      if (regex[i + 1] === ']') {
        out += regex[++i];
        isInClass = false;
      }
    } else if (ch === '.' && !isDotAll) out += jsDot;
    else out += ch;
  }
  return out;
}

/** RE2 flags of JavaScript flags (`g` and `d` do not change whether a value matches). */
function re2Flags(flags: string): number {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  return bits;
}

function compileRe2(regex: string, flags: string): RE2JS {
  const translated = RE2JS.translateRegExp(jsMeaning(regex, flags));
  // Sticky (`y`): a match must start where the test starts, at the beginning of the value.
  return RE2JS.compile(flags.includes('y') ? String.raw`\A(?:${translated})` : translated, re2Flags(flags));
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

export type PatternCheck =
  | { readonly kind: 'linear' }
  /** JavaScript runs it, RE2 cannot: `why` says which construct. */
  | { readonly kind: 'unsupported'; readonly why: string }
  | { readonly kind: 'invalid'; readonly why: string };

/** `checkPattern`, with the compiled RE2 program when there is one. */
function analyse(regex: string, flags: string): { check: PatternCheck; re2?: RE2JS } {
  if (regex.length > maxPatternLength) {
    return { check: { kind: 'invalid', why: `is longer than ${maxPatternLength} characters; shorten it` } };
  }
  try {
    new RegExp(regex, flags);
  } catch {
    return { check: { kind: 'invalid', why: 'is not a valid regular expression with these flags' } };
  }
  // re2js would read a named backreference as the letters `k<name>`.
  if (/\\k</.test(regex) && /\(\?<[^=!]/.test(regex)) {
    return { check: { kind: 'unsupported', why: 'uses a named backreference (\\k<name>)' } };
  }
  try {
    const compiled = runBounded(() => compileRe2(regex, flags), compileTimeoutMs);
    if (!compiled.isDone) return { check: { kind: 'invalid', why: 'is too complex to compile; simplify it' } };
    return { check: { kind: 'linear' }, re2: compiled.value };
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return { check: { kind: 'unsupported', why: `uses syntax RE2 cannot run (${detail})` } };
  }
}

/** Whether a pattern is usable, and on which engine; sizes first, then JavaScript's syntax, then RE2's. */
export function checkPattern(regex: string, flags: string | null): PatternCheck {
  return analyse(regex, flags ?? '').check;
}

/**
 * What `matchPattern` found. `invalid`: a stored pattern no engine can use (saved by an earlier
 * Lectern: too long, too complex, or not JavaScript); it is not the content author's fault.
 */
export type PatternMatch = 'match' | 'no_match' | 'too_long' | 'timed_out' | 'invalid';

interface Compiled {
  test(text: string): boolean;
  /** True for JavaScript's backtracking engine, whose time is drawn from the shared budget. */
  readonly isBacktracking?: boolean;
}

/** Compiled patterns by flags and source; the oldest go first past `maxCached`. */
const cache = new Map<string, Compiled | null>();
const maxCached = 500;

function compiled(regex: string, flags: string): Compiled | null {
  const key = `${flags}\u0000${regex}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const { check, re2 } = analyse(regex, flags);
  let entry: Compiled | null = null;
  if (re2 !== undefined) entry = re2;
  // Lookaround or backreferences: JavaScript's engine, fresh per test (no `lastIndex` carried over).
  else if (check.kind === 'unsupported')
    entry = { test: (text) => new RegExp(regex, flags).test(text), isBacktracking: true };
  cache.set(key, entry);
  if (cache.size > maxCached) cache.delete(cache.keys().next().value as string);
  return entry;
}

/** Tests a value against a pattern, within `maxPatternTextLength` and `patternTimeoutMs`. */
export function matchPattern(options: { regex: string; flags: string | null; text: string }): PatternMatch {
  if (options.text.length > maxPatternTextLength) return 'too_long';
  const flags = options.flags ?? '';
  const pattern = compiled(options.regex, flags);
  if (pattern === null) return 'invalid';
  const timeoutMs =
    pattern.isBacktracking === true ? Math.min(patternTimeoutMs, backtrackingBudget()) : patternTimeoutMs;
  if (timeoutMs < 1) return 'timed_out';
  const started = performance.now();
  let result = runBounded(() => pattern.test(options.text), Math.floor(timeoutMs));
  if (pattern.isBacktracking === true) budgetMs -= performance.now() - started;
  // RE2's time is linear in the value, so its bound is only ever reached when this thread was
  // descheduled (a loaded machine): one more try tells that apart from a real runaway.
  else if (!result.isDone) result = runBounded(() => pattern.test(options.text), patternTimeoutMs);
  if (!result.isDone) {
    // A terminated match may leave the engine's caches half-written: compile afresh next time.
    cache.delete(`${flags}\u0000${options.regex}`);
    return 'timed_out';
  }
  return result.value ? 'match' : 'no_match';
}

/** The problem text for a refused pattern, naming the element and what to change. */
export function patternProblem(
  check: Extract<PatternCheck, { kind: 'invalid' }>,
  element: string | null,
  regex: string,
) {
  const subject =
    element === null ? `The pattern ${quoted(regex)}` : `The pattern ${quoted(regex)} of element '${element}'`;
  return `${subject} ${check.why}.`;
}
