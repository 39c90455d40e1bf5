import { LecternError, type ErrorCode, type ValidationProblem } from '@lectern/errors';

/**
 * Collects every problem of a request before failing, so one response lists them all
 * (SPEC 7.2 `validation_errors`). Paths use the body's JSON path (`elements[2].name`).
 */
export class Problems {
  readonly #list: ValidationProblem[] = [];

  add(path: string | undefined, message: string): void {
    this.#list.push(path === undefined || path === '' ? { message } : { path, message });
  }

  /** The problems collected so far. */
  get list(): ValidationProblem[] {
    return [...this.#list];
  }

  get isEmpty(): boolean {
    return this.#list.length === 0;
  }

  /** Throws one error carrying every problem, if there is any. */
  throwIfAny(code: ErrorCode = 'INVALID_REQUEST_BODY', message?: string): void {
    if (this.#list.length > 0) {
      throw new LecternError(code, { problems: [...this.#list], ...(message === undefined ? {} : { message }) });
    }
  }
}

/** Joins a JSON path and a property or index. */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
