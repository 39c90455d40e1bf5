import { readFileSync } from 'node:fs';
import { Kind, parse, visit, type DefinitionNode, type DocumentNode, type FragmentDefinitionNode } from 'graphql';
import type { TypedDocumentNode } from '@urql/core';

/** The sample queries file beside this module. */
export const sampleQueriesPath = new URL('./sample-queries.graphql', import.meta.url).pathname;

const document = parse(readFileSync(sampleQueriesPath, 'utf8'));
const fragments = new Map(
  document.definitions
    .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
    .map((d) => [d.name.value, d]),
);

/** The fragments a definition spreads, through other fragments too. */
function usedFragments(definition: DefinitionNode, found = new Map<string, FragmentDefinitionNode>()) {
  visit(definition, {
    FragmentSpread(node) {
      const fragment = fragments.get(node.name.value);
      if (fragment !== undefined && !found.has(fragment.name.value)) {
        found.set(fragment.name.value, fragment);
        usedFragments(fragment, found);
      }
    },
  });
  return found;
}

/** One operation of the samples with the fragments it uses, typed with codegen's types. */
export function sampleOperation<Result, Variables extends Record<string, unknown>>(
  name: string,
): TypedDocumentNode<Result, Variables> {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (operation === undefined) throw new Error(`no sample operation ${name}`);
  const doc: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [operation, ...usedFragments(operation).values()],
  };
  return doc as TypedDocumentNode<Result, Variables>;
}
