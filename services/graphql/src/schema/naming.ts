/**
 * GraphQL names from codenames (SPEC 2.8; reference 3.2): underscores are removed and each part
 * after one starts upper case; types are Pascal case, fields camel case, snippet fields and types
 * take a leading underscore.
 */

/** Codenames whose type name would shadow a built-in or Lectern scalar (SPEC 2.8). */
export const reservedTypeNames: ReadonlySet<string> = new Set([
  'Array',
  'Boolean',
  'DateTime',
  'Float',
  'Guid',
  'Int',
  'String',
  'ID',
]);

const graphqlName = /^[_A-Za-z][_0-9A-Za-z]*$/;

function parts(codename: string): string[] {
  return codename.split('_').filter((p) => p !== '');
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** `fact_about_us` → `FactAboutUs`. */
export function pascalName(codename: string): string {
  return parts(codename).map(upperFirst).join('');
}

/** `body_copy` → `bodyCopy`. */
export function camelName(codename: string): string {
  return lowerFirst(pascalName(codename));
}

/** Whether a derived name is a valid GraphQL name (a codename of digits only would not be). */
export function isValidName(name: string): boolean {
  return graphqlName.test(name) && !name.startsWith('__');
}

/** A problem with the names of a content model: the schema is refused, naming what to rename. */
export interface NamingProblem {
  readonly message: string;
}

/**
 * Collects the codenames that map to each name within one scope (the types of a project, the
 * fields of a type), and reports every name that two codenames share.
 */
export class NameScope {
  readonly #owners = new Map<string, string>();
  readonly problems: NamingProblem[];
  readonly #what: string;

  constructor(options: { what: string; problems: NamingProblem[] }) {
    this.#what = options.what;
    this.problems = options.problems;
  }

  /** Claims `name` for `owner` (a description such as "content type 'fact_about_us'"). */
  claim(name: string, owner: string): boolean {
    if (!isValidName(name)) {
      this.problems.push({ message: `The ${owner} gives the GraphQL name '${name}', which is not a valid name.` });
      return false;
    }
    const previous = this.#owners.get(name);
    if (previous !== undefined) {
      this.problems.push({
        message: `The ${previous} and the ${owner} both give the GraphQL ${this.#what} name '${name}'; rename one of them.`,
      });
      return false;
    }
    this.#owners.set(name, owner);
    return true;
  }
}
