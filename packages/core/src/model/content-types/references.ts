import type { ModelRecord } from '../../domain/model-record.ts';
import { at, describeReference, type Problems, type Reference } from '../shared/index.ts';
import type { ReadElement } from './read-element.ts';
import type { IdAssigner } from './ids.ts';
import type { ElementBody, SnippetRecord } from './model.ts';

type Named = Pick<ElementBody, 'id' | 'codename' | 'external_id'>;

function isElementMatch(el: Named, ref: Reference, ids: IdAssigner | null, snippetCodename?: string): boolean {
  if ('id' in ref) return el.id === (ids?.mapped(ref.id) ?? ref.id);
  if ('external_id' in ref) return el.external_id === ref.external_id;
  return (
    el.codename === ref.codename ||
    (snippetCodename !== undefined && el.codename === `${snippetCodename}__${ref.codename}`)
  );
}

function isRecordMatch(r: ModelRecord<object>, ref: Reference): boolean {
  if ('id' in ref) return r.id === ref.id;
  if ('codename' in ref) return r.codename === ref.codename;
  return r.externalId === ref.external_id;
}

interface Found {
  readonly element: ElementBody;
  readonly snippet: SnippetRecord | null;
}

/** An element of the type itself, else of one of the snippets it uses. */
function findElement(
  ref: Reference,
  bodies: readonly ElementBody[],
  snippets: readonly SnippetRecord[],
  ids: IdAssigner | null,
): Found | null {
  const own = bodies.find((b) => b.type !== 'snippet' && isElementMatch(b, ref, ids));
  if (own) return { element: own, snippet: null };
  for (const s of snippets) {
    const inner = s.body.elements.find((b) => isElementMatch(b, ref, null, s.codename));
    if (inner) return { element: inner, snippet: s };
  }
  return null;
}

function resolveDependsOn(
  e: ReadElement,
  bodies: readonly ElementBody[],
  snippets: readonly SnippetRecord[],
  ids: IdAssigner | null,
  problems: Problems,
): { element: { id: string }; snippet?: { id: string } } | null {
  const dep = e.kind.dependsOn;
  if (!dep) return null;
  const path = at(e.path, 'depends_on');
  let found: Found | null;
  if (dep.snippet) {
    const snippetRef = dep.snippet;
    const snippet = snippets.find((s) => isRecordMatch(s, snippetRef));
    if (!snippet) {
      problems.add(
        at(path, 'snippet'),
        `The snippet with ${describeReference(snippetRef)} is not used in this content type.`,
      );
      return null;
    }
    const inner = snippet.body.elements.find((b) => isElementMatch(b, dep.element, null, snippet.codename));
    found = inner ? { element: inner, snippet } : null;
  } else found = findElement(dep.element, bodies, snippets, ids);
  if (!found) {
    problems.add(at(path, 'element'), `The element with ${describeReference(dep.element)} was not found.`);
    return null;
  }
  if (found.element.type !== 'text') {
    problems.add(at(path, 'element'), 'A URL slug can depend only on a text element.');
    return null;
  }
  return { element: { id: found.element.id }, ...(found.snippet ? { snippet: { id: found.snippet.id } } : {}) };
}

/**
 * Resolves references between elements once all are known: a URL slug's `depends_on` (a text
 * element of the type or of a snippet it uses) and a custom element's `allowed_elements`.
 * Replaces the affected entries of `bodies`.
 */
export function resolveElementReferences(
  input: { read: readonly ReadElement[]; bodies: ElementBody[]; ids: IdAssigner | null },
  problems: Problems,
): void {
  const snippets = input.read.flatMap((e) => (e.kind.usedSnippet ? [e.kind.usedSnippet] : []));
  for (const [i, e] of input.read.entries()) {
    const body = input.bodies[i] as ElementBody;
    if (e.kind.dependsOn) {
      const dependsOn = resolveDependsOn(e, input.bodies, snippets, input.ids, problems);
      if (dependsOn) input.bodies[i] = { ...body, depends_on: dependsOn };
    }
    if (e.kind.allowedElements) {
      const allowed: { id: string }[] = [];
      for (const [j, ref] of e.kind.allowedElements.entries()) {
        const found = findElement(ref, input.bodies, snippets, input.ids);
        if (!found)
          problems.add(
            at(at(e.path, 'allowed_elements'), j),
            `The element with ${describeReference(ref)} was not found.`,
          );
        else if (!allowed.some((a) => a.id === found.element.id)) allowed.push({ id: found.element.id });
      }
      input.bodies[i] = { ...(input.bodies[i] as ElementBody), allowed_elements: allowed };
    }
  }
}
