import { QuerySyntaxError } from './query-error.ts';

export type TokenKind = 'number' | 'string' | 'property' | 'word' | 'symbol' | 'end';
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** The decoded value of strings and properties, the lower-cased word of words. */
  readonly value: string;
  readonly column: number;
}

const symbols = ['==', '!=', '<>', '<=', '>=', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', '{', '}', ','];

// Sticky (`y`) patterns match at `lastIndex` without copying the rest of the input, so every
// character is looked at a bounded number of times: the tokenizer is linear in the input.
const space = /\s+/y;
const number = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const word = /[A-Za-z_][A-Za-z0-9_]*/y;
/** A run of characters that need no decoding inside a quoted string or property name. */
const plain = { '"': /[^"\\]+/y, "'": /[^'\\]+/y } as const;

function matchAt(pattern: RegExp, input: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(input)?.[0];
}

/** A quoted string or property name at `start`: its decoded value and the index after its closing quote. */
function quoted(input: string, start: number): { value: string; end: number } {
  const quote = input[start] as '"' | "'";
  const parts: string[] = [];
  let i = start + 1;
  while (i < input.length) {
    const run = matchAt(plain[quote], input, i);
    if (run !== undefined) {
      parts.push(run);
      i += run.length;
      continue;
    }
    const c = input[i]!;
    if (c === '\\' && i + 1 < input.length) {
      parts.push(input[i + 1]!);
      i += 2;
    } else if (c === quote && input[i + 1] === quote) {
      parts.push(quote);
      i += 2;
    } else if (c === quote) {
      return { value: parts.join(''), end: i + 1 };
    } else {
      // A backslash as the last character: kept as written, and the quote is unterminated.
      parts.push(c);
      i++;
    }
  }
  throw new QuerySyntaxError(`Unterminated ${quote === '"' ? 'string' : 'property name'}`, start + 1);
}

/** Splits a query into tokens, in time linear in its length; the last token is `end`. */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    const column = i + 1;
    const blank = matchAt(space, input, i);
    if (blank !== undefined) {
      i += blank.length;
    } else if (c === '"' || c === "'") {
      const { value, end } = quoted(input, i);
      tokens.push({ kind: c === '"' ? 'string' : 'property', text: input.slice(i, end), value, column });
      i = end;
    } else if (/[0-9.]/.test(c)) {
      const text = matchAt(number, input, i);
      if (text === undefined) throw new QuerySyntaxError(`Unexpected character '${c}'`, column);
      tokens.push({ kind: 'number', text, value: text, column });
      i += text.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const text = matchAt(word, input, i)!;
      tokens.push({ kind: 'word', text, value: text.toLowerCase(), column });
      i += text.length;
    } else {
      const symbol = symbols.find((s) => input.startsWith(s, i));
      if (!symbol) throw new QuerySyntaxError(`Unexpected character '${c}'`, column);
      tokens.push({ kind: 'symbol', text: symbol, value: symbol, column });
      i += symbol.length;
    }
  }
  tokens.push({ kind: 'end', text: 'end of query', value: '', column: input.length + 1 });
  return tokens;
}
