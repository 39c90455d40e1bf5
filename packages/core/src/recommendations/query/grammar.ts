/**
 * The filter and booster language of the recommendation engine (SPEC 4.5 rules 2–3): the subset
 * of ReQL that the Kontent.ai clients document. This file is the whole grammar: a tokenizer and a
 * recursive-descent parser, one function per rule below. Keywords are case-insensitive; `'…'`
 * names a property, `"…"` is a string (both escape their quote by doubling it or with `\`).
 *
 *   query          = expression EOF
 *   expression     = or
 *   or             = and { "or" and }
 *   and            = not { "and" not }
 *   not            = "not" not | comparison
 *   comparison     = additive [ ( "==" | "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" | "in" | "not in" ) additive ]
 *   additive       = multiplicative { ( "+" | "-" ) multiplicative }
 *   multiplicative = unary { ( "*" | "/" | "%" ) unary }
 *   unary          = "-" unary | primary
 *   primary        = NUMBER | STRING | PROPERTY | "true" | "false" | set | call
 *                  | "(" expression ")" | "if" expression "then" expression "else" expression
 *   set            = "{" [ expression { "," expression } ] "}"
 *   call           = NAME "(" [ expression { "," expression } ] ")"
 *
 * Every node carries the column (1-based) where it starts, and every error names the column
 * where the input stopped making sense.
 */

export type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%' | 'and' | 'or';

export type QueryNode =
  | { readonly kind: 'number'; readonly value: number; readonly column: number }
  | { readonly kind: 'string'; readonly value: string; readonly column: number }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly column: number }
  | { readonly kind: 'property'; readonly name: string; readonly column: number }
  | { readonly kind: 'set'; readonly items: readonly QueryNode[]; readonly column: number }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly QueryNode[]; readonly column: number }
  | { readonly kind: 'not'; readonly operand: QueryNode; readonly column: number }
  | { readonly kind: 'negate'; readonly operand: QueryNode; readonly column: number }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOp;
      readonly left: QueryNode;
      readonly right: QueryNode;
      readonly column: number;
    }
  | {
      readonly kind: 'in';
      readonly isNegated: boolean;
      readonly needle: QueryNode;
      readonly haystack: QueryNode;
      readonly column: number;
    }
  | {
      readonly kind: 'if';
      readonly condition: QueryNode;
      readonly then: QueryNode;
      readonly otherwise: QueryNode;
      readonly column: number;
    };

/** A query that does not parse or does not make sense; `column` is 1-based. */
export class QuerySyntaxError extends Error {
  readonly column: number;
  constructor(message: string, column: number) {
    super(`${message} at column ${column}`);
    this.name = 'QuerySyntaxError';
    this.column = column;
  }
}

type TokenKind = 'number' | 'string' | 'property' | 'word' | 'symbol' | 'end';
interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** The decoded value of strings and properties, the lower-cased word of words. */
  readonly value: string;
  readonly column: number;
}

const symbols = ['==', '!=', '<>', '<=', '>=', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', '{', '}', ','];

function quoted(input: string, start: number): { value: string; end: number } {
  const quote = input[start];
  let value = '';
  for (let i = start + 1; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\\' && i + 1 < input.length) value += input[++i];
    else if (c === quote && input[i + 1] === quote) value += input[++i];
    else if (c === quote) return { value, end: i + 1 };
    else value += c;
  }
  throw new QuerySyntaxError(`Unterminated ${quote === '"' ? 'string' : 'property name'}`, start + 1);
}

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    const column = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      const { value, end } = quoted(input, i);
      tokens.push({ kind: c === '"' ? 'string' : 'property', text: input.slice(i, end), value, column });
      i = end;
    } else if (/[0-9.]/.test(c)) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(input.slice(i));
      if (!m) throw new QuerySyntaxError(`Unexpected character '${c}'`, column);
      tokens.push({ kind: 'number', text: m[0], value: m[0], column });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(input.slice(i))!;
      tokens.push({ kind: 'word', text: m[0], value: m[0].toLowerCase(), column });
      i += m[0].length;
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

const comparisons: Readonly<Record<string, BinaryOp>> = {
  '==': '==',
  '=': '==',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
const keywords = new Set(['and', 'or', 'not', 'in', 'if', 'then', 'else', 'true', 'false']);

class Parser {
  private position = 0;
  private readonly tokens: readonly Token[];
  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }

  private peek(): Token {
    return this.tokens[this.position]!;
  }
  private next(): Token {
    return this.tokens[this.position++]!;
  }
  private isWord(word: string, offset = 0): boolean {
    const t = this.tokens[this.position + offset];
    return t?.kind === 'word' && t.value === word;
  }
  private isSymbol(symbol: string): boolean {
    const t = this.peek();
    return t.kind === 'symbol' && t.value === symbol;
  }
  private fail(expected: string): never {
    const t = this.peek();
    throw new QuerySyntaxError(`Expected ${expected} but found ${t.kind === 'end' ? t.text : `'${t.text}'`}`, t.column);
  }
  private expectWord(word: string): void {
    if (!this.isWord(word)) this.fail(`'${word}'`);
    this.next();
  }
  private expectSymbol(symbol: string): void {
    if (!this.isSymbol(symbol)) this.fail(`'${symbol}'`);
    this.next();
  }

  query(): QueryNode {
    if (this.peek().kind === 'end') this.fail('an expression');
    const node = this.expression();
    if (this.peek().kind !== 'end') this.fail('an operator or the end of the query');
    return node;
  }
  private expression(): QueryNode {
    return this.or();
  }
  private or(): QueryNode {
    let left = this.and();
    while (this.isWord('or')) {
      this.next();
      left = { kind: 'binary', op: 'or', left, right: this.and(), column: left.column };
    }
    return left;
  }
  private and(): QueryNode {
    let left = this.not();
    while (this.isWord('and')) {
      this.next();
      left = { kind: 'binary', op: 'and', left, right: this.not(), column: left.column };
    }
    return left;
  }
  private not(): QueryNode {
    if (this.isWord('not') && !this.isWord('in', 1)) {
      const { column } = this.next();
      return { kind: 'not', operand: this.not(), column };
    }
    return this.comparison();
  }
  private comparison(): QueryNode {
    const left = this.additive();
    const t = this.peek();
    if (t.kind === 'symbol' && comparisons[t.value]) {
      this.next();
      return { kind: 'binary', op: comparisons[t.value]!, left, right: this.additive(), column: left.column };
    }
    const isNegated = this.isWord('not') && this.isWord('in', 1);
    if (isNegated || this.isWord('in')) {
      this.position += isNegated ? 2 : 1;
      return { kind: 'in', isNegated, needle: left, haystack: this.additive(), column: left.column };
    }
    return left;
  }
  private additive(): QueryNode {
    let left = this.multiplicative();
    while (this.isSymbol('+') || this.isSymbol('-')) {
      const op = this.next().value as BinaryOp;
      left = { kind: 'binary', op, left, right: this.multiplicative(), column: left.column };
    }
    return left;
  }
  private multiplicative(): QueryNode {
    let left = this.unary();
    while (this.isSymbol('*') || this.isSymbol('/') || this.isSymbol('%')) {
      const op = this.next().value as BinaryOp;
      left = { kind: 'binary', op, left, right: this.unary(), column: left.column };
    }
    return left;
  }
  private unary(): QueryNode {
    if (this.isSymbol('-')) {
      const { column } = this.next();
      return { kind: 'negate', operand: this.unary(), column };
    }
    return this.primary();
  }
  private list(close: string): QueryNode[] {
    const items: QueryNode[] = [];
    if (this.isSymbol(close)) {
      this.next();
      return items;
    }
    for (;;) {
      items.push(this.expression());
      if (this.isSymbol(close)) {
        this.next();
        return items;
      }
      this.expectSymbol(',');
    }
  }
  private primary(): QueryNode {
    const t = this.peek();
    const { column } = t;
    if (t.kind === 'number') {
      this.next();
      return { kind: 'number', value: Number(t.value), column };
    }
    if (t.kind === 'string') {
      this.next();
      return { kind: 'string', value: t.value, column };
    }
    if (t.kind === 'property') {
      this.next();
      return { kind: 'property', name: t.value, column };
    }
    if (this.isSymbol('(')) {
      this.next();
      const inner = this.expression();
      this.expectSymbol(')');
      return inner;
    }
    if (this.isSymbol('{')) {
      this.next();
      return { kind: 'set', items: this.list('}'), column };
    }
    if (t.kind === 'word') {
      if (t.value === 'true' || t.value === 'false') {
        this.next();
        return { kind: 'boolean', value: t.value === 'true', column };
      }
      if (t.value === 'if') {
        this.next();
        const condition = this.expression();
        this.expectWord('then');
        const then = this.expression();
        this.expectWord('else');
        return { kind: 'if', condition, then, otherwise: this.expression(), column };
      }
      if (!keywords.has(t.value)) {
        this.next();
        this.expectSymbol('(');
        return { kind: 'call', name: t.value, args: this.list(')'), column };
      }
    }
    return this.fail('a value, a property or a function');
  }
}

/** Parses a filter or booster; throws QuerySyntaxError naming the column of the first problem. */
export function parseQuery(input: string): QueryNode {
  return new Parser(tokenize(input)).query();
}
