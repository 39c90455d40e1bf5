/**
 * The filter and booster language of the recommendation engine (SPEC 4.5 rules 2–3): the subset
 * of ReQL that the Kontent.ai clients document. This file is the whole grammar: a recursive-descent
 * parser, one function per rule below, over the tokens of `tokenize.ts`. Keywords are
 * case-insensitive; `'…'` names a property, `"…"` is a string (both escape their quote by doubling
 * it or with `\`).
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
 * where the input stopped making sense. The bounds of `limits.ts` are checked first (the length)
 * or as the parser goes (nesting, nodes), so the parser's own work and recursion stay bounded.
 */

import { childrenOf, type BinaryOp, type QueryNode } from './ast.ts';
import { queryLimits } from './limits.ts';
import { QueryLimitError, QuerySyntaxError } from './query-error.ts';
import { tokenize, type Token } from './tokenize.ts';

export { QueryLimitError, QueryRangeError, QuerySyntaxError, type QueryLimit } from './query-error.ts';
export { tokenize, type Token, type TokenKind } from './tokenize.ts';
export { childrenOf, type BinaryOp, type QueryNode } from './ast.ts';

const comparisons: ReadonlyMap<string, BinaryOp> = new Map([
  ['==', '=='],
  ['=', '=='],
  ['!=', '!='],
  ['<>', '!='],
  ['<', '<'],
  ['<=', '<='],
  ['>', '>'],
  ['>=', '>='],
]);
const keywords = new Set(['and', 'or', 'not', 'in', 'if', 'then', 'else', 'true', 'false']);

/** `n` with thousands separators, for messages. */
const count = (n: number) => n.toLocaleString('en-US');

class Parser {
  private position = 0;
  /** Levels of nesting entered and not yet left (see `queryLimits.maxNesting`). */
  private nesting = 0;
  private nodes = 0;
  /** The depth of each node made (a leaf is 1), so a node's depth is known when it is made. */
  private readonly depths = new WeakMap<QueryNode, number>();
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
  /**
   * Every node is made here, so its count and depth are checked before the tree can grow past
   * either bound; the error names the column of the last token read.
   */
  private node<N extends QueryNode>(node: N): N {
    const column = this.tokens[this.position - 1]?.column ?? node.column;
    if (++this.nodes > queryLimits.maxNodes)
      throw new QueryLimitError(`A query may hold at most ${count(queryLimits.maxNodes)} values and operators`, {
        column,
        limit: 'nodes',
      });
    const depth = 1 + Math.max(0, ...childrenOf(node).map((c) => this.depths.get(c) ?? 1));
    if (depth > queryLimits.maxDepth)
      throw new QueryLimitError(
        `A query may be at most ${queryLimits.maxDepth} operations deep (each operator of a chain such as 1+1+… is one)`,
        { column, limit: 'depth' },
      );
    this.depths.set(node, depth);
    return node;
  }
  /** Runs one level of nesting that starts at `column`; refuses to go deeper than the bound. */
  private nested<T>(column: number, parse: () => T): T {
    if (++this.nesting > queryLimits.maxNesting)
      throw new QueryLimitError(
        `A query may nest at most ${queryLimits.maxNesting} levels deep (parentheses, not, -, if, sets and calls)`,
        { column, limit: 'nesting' },
      );
    const result = parse();
    this.nesting--;
    return result;
  }
  /**
   * `a op b op c …` for an associative `op` (`and`, `or`), built as a balanced tree: its depth
   * grows with the logarithm of its length, so a long list of alternatives stays shallow.
   */
  private balanced(op: 'and' | 'or', operands: readonly QueryNode[], from = 0, to = operands.length): QueryNode {
    if (to - from === 1) return operands[from]!;
    const middle = (from + to) >> 1;
    const left = this.balanced(op, operands, from, middle);
    const right = this.balanced(op, operands, middle, to);
    return this.node({ kind: 'binary', op, left, right, column: left.column });
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
    const operands = [this.and()];
    while (this.isWord('or')) {
      this.next();
      operands.push(this.and());
    }
    return this.balanced('or', operands);
  }
  private and(): QueryNode {
    const operands = [this.not()];
    while (this.isWord('and')) {
      this.next();
      operands.push(this.not());
    }
    return this.balanced('and', operands);
  }
  private not(): QueryNode {
    if (this.isWord('not') && !this.isWord('in', 1)) {
      const { column } = this.next();
      return this.node({ kind: 'not', operand: this.nested(column, () => this.not()), column });
    }
    return this.comparison();
  }
  private comparison(): QueryNode {
    const left = this.additive();
    const t = this.peek();
    const op = t.kind === 'symbol' ? comparisons.get(t.value) : undefined;
    if (op !== undefined) {
      this.next();
      return this.node({ kind: 'binary', op, left, right: this.additive(), column: left.column });
    }
    const isNegated = this.isWord('not') && this.isWord('in', 1);
    if (isNegated || this.isWord('in')) {
      this.position += isNegated ? 2 : 1;
      return this.node({ kind: 'in', isNegated, needle: left, haystack: this.additive(), column: left.column });
    }
    return left;
  }
  private additive(): QueryNode {
    let left = this.multiplicative();
    while (this.isSymbol('+') || this.isSymbol('-')) {
      const op = this.next().value as BinaryOp;
      left = this.node({ kind: 'binary', op, left, right: this.multiplicative(), column: left.column });
    }
    return left;
  }
  private multiplicative(): QueryNode {
    let left = this.unary();
    while (this.isSymbol('*') || this.isSymbol('/') || this.isSymbol('%')) {
      const op = this.next().value as BinaryOp;
      left = this.node({ kind: 'binary', op, left, right: this.unary(), column: left.column });
    }
    return left;
  }
  private unary(): QueryNode {
    if (this.isSymbol('-')) {
      const { column } = this.next();
      return this.node({ kind: 'negate', operand: this.nested(column, () => this.unary()), column });
    }
    return this.primary();
  }
  /** Comma-separated expressions up to `close`, the opening bracket at `column` already read. */
  private list(close: string, column: number): QueryNode[] {
    return this.nested(column, () => {
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
    });
  }
  private primary(): QueryNode {
    const t = this.peek();
    const { column } = t;
    if (t.kind === 'number') {
      this.next();
      const value = Number(t.value);
      // `1e999` would be Infinity, which neither JSON (OpenSearch's parameters) nor PostgreSQL's
      // arithmetic carries.
      if (!Number.isFinite(value)) throw new QuerySyntaxError(`The number ${t.text} is out of range`, column);
      return this.node({ kind: 'number', value, column });
    }
    if (t.kind === 'string') {
      this.next();
      return this.node({ kind: 'string', value: t.value, column });
    }
    if (t.kind === 'property') {
      this.next();
      return this.node({ kind: 'property', name: t.value, column });
    }
    if (this.isSymbol('(')) {
      this.next();
      const inner = this.nested(column, () => this.expression());
      this.expectSymbol(')');
      return inner;
    }
    if (this.isSymbol('{')) {
      this.next();
      return this.node({ kind: 'set', items: this.list('}', column), column });
    }
    if (t.kind === 'word') {
      if (t.value === 'true' || t.value === 'false') {
        this.next();
        return this.node({ kind: 'boolean', value: t.value === 'true', column });
      }
      if (t.value === 'if') {
        this.next();
        return this.nested(column, () => {
          const condition = this.expression();
          this.expectWord('then');
          const then = this.expression();
          this.expectWord('else');
          return this.node({ kind: 'if', condition, then, otherwise: this.expression(), column });
        });
      }
      if (!keywords.has(t.value)) {
        this.next();
        const open = this.peek().column;
        this.expectSymbol('(');
        return this.node({ kind: 'call', name: t.value, args: this.list(')', open), column });
      }
    }
    return this.fail('a value, a property or a function');
  }
}

/**
 * Parses a filter or booster; throws QuerySyntaxError naming the column of the first problem, or
 * QueryLimitError when the query goes over a bound of `queryLimits` — the length before anything
 * else, the depth and node count as the parser meets them.
 */
export function parseQuery(input: string): QueryNode {
  if (input.length > queryLimits.maxLength)
    throw new QueryLimitError(
      `A query may be at most ${count(queryLimits.maxLength)} characters long, not ${count(input.length)}`,
      { column: queryLimits.maxLength + 1, limit: 'length' },
    );
  return new Parser(tokenize(input)).query();
}
