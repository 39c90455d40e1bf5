import { catalogue, type ErrorCode, type ErrorKind } from './catalogue.ts';

/** One problem of a request body or query: what is wrong and where (a JSON path such as `elements[0].value`). */
export interface ValidationProblem {
  readonly message: string;
  readonly path?: string;
}

export interface LecternErrorOptions {
  readonly message?: string;
  readonly problems?: readonly ValidationProblem[];
  /** Seconds the client should wait, for `rate_limited` errors. */
  readonly retryAfterSeconds?: number;
  readonly cause?: unknown;
}

/** The one error type operations throw. Transports map it with `toManagementError` / `toDeliveryError`. */
export class LecternError extends Error {
  readonly code: ErrorCode;
  readonly problems: readonly ValidationProblem[];
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: LecternErrorOptions = {}) {
    super(options.message ?? catalogue[code].message, { cause: options.cause });
    this.name = 'LecternError';
    this.code = code;
    this.problems = options.problems ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get kind(): ErrorKind {
    return catalogue[this.code].kind;
  }
}

export function isLecternError(value: unknown): value is LecternError {
  return value instanceof LecternError;
}
