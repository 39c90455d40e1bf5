/** A query that does not parse or does not make sense; `column` is 1-based. */
export class QuerySyntaxError extends Error {
  readonly column: number;
  constructor(message: string, column: number) {
    super(`${message} at column ${column}`);
    this.name = 'QuerySyntaxError';
    this.column = column;
  }
}

/** Which bound of `queryLimits` a query went over. */
export type QueryLimit = 'length' | 'nesting' | 'depth' | 'nodes';

/**
 * A query refused for its size before any work that grows with it (see `queryLimits`). A
 * QuerySyntaxError too, so every caller that turns syntax errors into a 400 refuses it the same way.
 */
export class QueryLimitError extends QuerySyntaxError {
  readonly limit: QueryLimit;
  constructor(message: string, options: { column: number; limit: QueryLimit }) {
    super(message, options.column);
    this.name = 'QueryLimitError';
    this.limit = options.limit;
  }
}

/**
 * A checked filter or booster whose arithmetic left the range of a number on some entry: the SQL
 * adapter throws it where PostgreSQL refuses a float overflow or underflow (`'lastupdated' * 1e308`).
 * It depends on the data, so the check cannot see it first; the API answers it with a 400.
 */
export class QueryRangeError extends Error {
  constructor(options: { cause: unknown }) {
    super('The filter or booster gives a number out of range (too large or too small) for some item', options);
    this.name = 'QueryRangeError';
  }
}
