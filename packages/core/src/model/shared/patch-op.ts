import { Problems } from './problems.ts';

/** The operations of a PATCH body; anything but a non-empty array is refused (400) before any applies. */
export function readOperations(value: unknown): readonly unknown[] {
  if (!Array.isArray(value) || value.length === 0) {
    const problems = new Problems();
    problems.add(undefined, 'The body must be a non-empty array of operations.');
    problems.throwIfAny();
  }
  return value as unknown[];
}

/**
 * The operation a PATCH entry's `op` names, lower-cased for the caller's switch, or '' when it is
 * not one of `names` spelled exactly: op names are case-sensitive, as Kontent.ai documents them
 * ("replace", "addInto", and "addinto" of the Learn samples), so "REPLACE" is refused rather than
 * guessed. Typed as the lower-cased names, so the caller's switch can be exhaustive.
 */
export function opNameOf<const N extends readonly string[]>(op: unknown, names: N): Lowercase<N[number]> | '' {
  return typeof op === 'string' && names.includes(op) ? (op.toLowerCase() as Lowercase<N[number]>) : '';
}
