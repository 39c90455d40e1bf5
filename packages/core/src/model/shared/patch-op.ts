/**
 * The operation a PATCH entry's `op` names, lower-cased for the caller's switch, or '' when it is
 * not one of `names` spelled exactly: op names are case-sensitive, as Kontent.ai documents them
 * ("replace", "addInto", and "addinto" of the Learn samples), so "REPLACE" is refused rather than
 * guessed. Typed as the lower-cased names, so the caller's switch can be exhaustive.
 */
export function opNameOf<const N extends readonly string[]>(op: unknown, names: N): Lowercase<N[number]> | '' {
  return typeof op === 'string' && names.includes(op) ? (op.toLowerCase() as Lowercase<N[number]>) : '';
}
