import { createHash } from 'node:crypto';
import { buildSchema, isObjectType, validateSchema, type GraphQLSchema } from 'graphql';
import type { TypeLinks } from '@lectern/core';
import { readGraphqlModel, type ModelType } from './content-model.ts';
import { modelSdl } from './model-sdl.ts';
import type { NamingProblem } from './naming.ts';

/** A project's schema at one content model, or why its model gives none. */
export type ProjectSchema =
  | {
      readonly isValid: true;
      readonly schema: GraphQLSchema;
      readonly sdl: string;
      readonly types: readonly ModelType[];
      /** Content types by codename, and their display names. */
      readonly byCodename: ReadonlyMap<string, ModelType>;
      readonly typeNames: ReadonlyMap<string, string>;
    }
  | { readonly isValid: false; readonly problems: readonly NamingProblem[] };

/**
 * Source objects hold a collection field (a field with arguments, root fields included) as a
 * function of its arguments. graphql-js's default resolver calls such functions; graphql-jit
 * compiles a field without a resolver to a property read, so those fields get one that calls.
 */
function attachResolvers(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      field.resolve = (source: Record<string, unknown>, args, context, info) => {
        const value = source[info.fieldName];
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown)(args, context, info) : value;
      };
    }
  }
}

/** No restricted elements (a model indexed before they were recorded, or an index without them). */
const noLinks: TypeLinks = {};

/** Builds the schema of a content model (Delivery JSON of its types, its restricted elements). */
export function buildProjectSchema(
  typesJson: readonly Record<string, unknown>[],
  options: { defaultLimit: number },
  links: TypeLinks = noLinks,
): ProjectSchema {
  const model = readGraphqlModel(typesJson, links);
  if (model.problems.length > 0) return { isValid: false, problems: model.problems };
  const sdl = modelSdl(model, options);
  let schema: GraphQLSchema;
  try {
    schema = buildSchema(sdl);
  } catch (error) {
    return {
      isValid: false,
      problems: [{ message: `The content model gives no valid schema: ${(error as Error).message}` }],
    };
  }
  const errors = validateSchema(schema);
  if (errors.length > 0) return { isValid: false, problems: errors.map((e) => ({ message: e.message })) };
  attachResolvers(schema);
  const typeNames = new Map<string, string>();
  for (const t of typesJson as readonly { system?: { codename?: unknown; name?: unknown } }[]) {
    const { codename, name } = t.system ?? {};
    if (typeof codename === 'string') typeNames.set(codename, typeof name === 'string' ? name : codename);
  }
  return {
    isValid: true,
    schema,
    sdl,
    types: model.types,
    byCodename: new Map(model.types.map((t) => [t.codename, t])),
    typeNames,
  };
}

/**
 * Each project's schema, built once per content model and kept while the model stays the same:
 * a model change (new type JSON) builds a new one at the next request, and requests that arrive
 * together share one build. Keyed by a digest of the model, so content changes reuse the schema.
 */
export class SchemaCache {
  readonly #byProject = new Map<string, { digest: string; schema: ProjectSchema }>();
  /** The same list of types and links (one watermark's model) skips even the digest. */
  readonly #byList = new WeakMap<readonly Record<string, unknown>[], { links: TypeLinks; schema: ProjectSchema }>();
  readonly #options: { defaultLimit: number; maxProjects: number };
  /** Schemas built so far (for tests and metrics). */
  builds = 0;

  constructor(options: { defaultLimit: number; maxProjects?: number }) {
    this.#options = { defaultLimit: options.defaultLimit, maxProjects: options.maxProjects ?? 1_000 };
  }

  get(projectId: string, typesJson: readonly Record<string, unknown>[], links: TypeLinks = noLinks): ProjectSchema {
    const known = this.#byList.get(typesJson);
    if (known !== undefined && known.links === links) return known.schema;
    const digest = createHash('sha1')
      .update(JSON.stringify([typesJson, links]))
      .digest('base64url');
    let entry = this.#byProject.get(projectId);
    if (entry === undefined || entry.digest !== digest) {
      this.builds += 1;
      entry = { digest, schema: buildProjectSchema(typesJson, this.#options, links) };
      this.#byProject.delete(projectId);
      this.#byProject.set(projectId, entry);
      if (this.#byProject.size > this.#options.maxProjects) {
        this.#byProject.delete(this.#byProject.keys().next().value ?? projectId);
      }
    }
    this.#byList.set(typesJson, { links, schema: entry.schema });
    return entry.schema;
  }
}
