import { findUnstorableStrings } from '@lectern/core';
import { LecternError, type ValidationProblem } from '@lectern/errors';

/**
 * Reads a JSON request body the way the Recommendations API binds it (ASP.NET model binding):
 * property names in any case (the JS client sends camelCase, the .NET one PascalCase), every
 * problem collected under the property's camelCase path, thrown together as one 400. A string
 * holding U+0000 or a lone surrogate anywhere in the body is a problem too.
 */
export class BodyReader {
  readonly problems: ValidationProblem[] = [];
  private readonly fields: ReadonlyMap<string, unknown>;
  private readonly prefix: string;

  constructor(value: unknown, options: { prefix?: string; problems?: ValidationProblem[] } = {}) {
    this.prefix = options.prefix ?? '';
    if (options.problems) this.problems = options.problems;
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!isObject && this.prefix === '')
      this.problems.push({ path: '', message: 'A non-empty request body is required.' });
    // U+0000 and lone surrogates cannot be stored or sent to the database, in any field.
    if (isObject && this.prefix === '')
      for (const f of findUnstorableStrings(value)) this.problems.push({ path: f.path ?? '', message: f.message });
    this.fields = new Map(isObject ? Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]) : []);
  }

  private path(name: string): string {
    return this.prefix === '' ? name : `${this.prefix}.${name}`;
  }

  private problem(name: string, message: string): null {
    this.problems.push({ path: this.path(name), message });
    return null;
  }

  private raw(name: string): unknown {
    return this.fields.get(name.toLowerCase());
  }

  string(name: string, options: { isRequired: boolean; isNoWhiteSpace?: boolean }): string | null {
    const value = this.raw(name);
    if (value === undefined || value === null || value === '')
      return options.isRequired ? this.problem(name, `The ${name} field is required.`) : null;
    if (typeof value !== 'string') return this.problem(name, `The ${name} field must be a string.`);
    if (options.isNoWhiteSpace && /\s/.test(value)) return this.problem(name, 'No white space allowed');
    return value;
  }

  int32(name: string, options: { isRequired: boolean; min: number; max?: number }): number | null {
    const value = this.raw(name);
    const max = options.max ?? 2_147_483_647;
    if (value === undefined || value === null)
      return options.isRequired ? this.problem(name, `The ${name} field is required.`) : null;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < options.min || value > max)
      return this.problem(name, `The field ${name} must be an integer between ${options.min} and ${max}.`);
    return value;
  }

  number(name: string, options: { isRequired: boolean; min: number; max: number }): number | null {
    const value = this.raw(name);
    if (value === undefined || value === null)
      return options.isRequired ? this.problem(name, `The ${name} field is required.`) : null;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < options.min || value > options.max)
      return this.problem(name, `The field ${name} must be a number between ${options.min} and ${options.max}.`);
    return value;
  }

  /** A nested object read by its own reader (problems shared), or null when absent. */
  object(name: string, options: { isRequired: boolean }): BodyReader | null {
    const value = this.raw(name);
    if (value === undefined || value === null)
      return options.isRequired ? this.problem(name, `The ${name} field is required.`) : null;
    if (typeof value !== 'object' || Array.isArray(value))
      return this.problem(name, `The ${name} field must be an object.`);
    return new BodyReader(value, { prefix: this.path(name), problems: this.problems });
  }

  /** A free object (custom visitor properties), kept as sent. */
  record(name: string): Record<string, unknown> | null {
    const value = this.raw(name);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'object' || Array.isArray(value))
      return this.problem(name, `The ${name} field must be an object.`);
    return value as Record<string, unknown>;
  }

  addProblem(name: string, message: string): void {
    this.problem(name, message);
  }

  /** Throws every problem found so far as one INVALID_REQUEST_BODY. */
  check(): void {
    if (this.problems.length > 0)
      throw new LecternError('INVALID_REQUEST_BODY', {
        message: 'One or more validation errors occurred.',
        problems: this.problems,
      });
  }
}
