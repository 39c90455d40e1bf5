/**
 * The end of an exhaustive `switch` over a closed vocabulary (a union of literals): the compiler
 * refuses the call while a member is not handled, so adding a member points at every place to
 * change. Reached at run time only through a value typed wrongly (a cast or unchecked data), a
 * programming error: it throws a plain `Error`, never an API error of the catalogue.
 */
export function assertNever(value: never, vocabulary = 'value'): never {
  throw new Error(`Unhandled ${vocabulary}: ${JSON.stringify(value)}`);
}
