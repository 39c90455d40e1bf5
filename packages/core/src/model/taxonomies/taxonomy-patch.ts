import { assertNever, type ValidationProblem } from '@lectern/errors';
import { operationMessage, readLooseReference, readName } from '../collections/model-fields.ts';
import { at, checkCodename, isRecord, opNameOf, Problems, type Reference } from '../shared/index.ts';
import {
  checkTerms,
  fillCodenames,
  findTerm,
  parseTerm,
  parseTerms,
  taxonomyNameMax,
  termCodenameMax,
  type TaxonomyTermBody,
  type TermContext,
} from './taxonomy-terms.ts';

/** What a taxonomy PATCH may change: the group's name and codename and its term tree. */
export interface TaxonomyDraft {
  name: string;
  codename: string;
  terms: TaxonomyTermBody[];
}

interface Operation {
  readonly index: number;
  readonly op: 'replace' | 'remove' | 'addinto' | 'move';
  readonly reference: Reference | null;
  readonly property: unknown;
  readonly value: unknown;
  readonly before: Reference | null;
  readonly after: Reference | null;
  readonly under: Reference | null;
}

/**
 * Applies taxonomy PATCH operations (reference §6.2) in order to a copy of `draft`. Each operation
 * is checked on its own copy (term codenames and ids stay unique after it); a failing operation is
 * skipped so the ones after it are still checked. Returns the result and every problem found; the
 * caller saves only when there is none.
 */
export function applyTaxonomyOperations(options: {
  draft: TaxonomyDraft;
  operations: unknown;
  ctx: TermContext;
  foreignTermIds: ReadonlySet<string>;
}): { draft: TaxonomyDraft; problems: ValidationProblem[] } {
  if (!Array.isArray(options.operations) || options.operations.length === 0)
    return { draft: options.draft, problems: [{ message: 'The body must be a non-empty array of operations.' }] };
  let draft = options.draft;
  const all: ValidationProblem[] = [];
  for (const [index, raw] of (options.operations as unknown[]).entries()) {
    const problems = new Problems();
    const next = structuredClone(draft);
    const op = readOperation(raw, index, problems);
    if (op) applyOne(next, op, problems, options.ctx);
    if (problems.isEmpty)
      checkTerms({
        terms: next.terms,
        foreignIds: options.foreignTermIds,
        problems,
        report: (message) => problems.add(`[${index}]`, operationMessage(index, message)),
      });
    const found = problems.list;
    if (found.length === 0) draft = next;
    else all.push(...found);
  }
  return { draft, problems: all };
}

function optionalReference(value: unknown, path: string, problems: Problems): Reference | null {
  return value === undefined || value === null ? null : readLooseReference(value, path, problems);
}

/** A path reference segment `id:…`, `codename:…` or `external_id:…` (`\/` escapes a slash). */
function segmentReference(segment: string): Reference | null {
  const match = /^(id|codename|external_id):(.+)$/.exec(segment);
  if (!match) return null;
  const value = (match[2] as string).replaceAll('\\/', '/');
  if (match[1] === 'id') return { id: value.toLowerCase() };
  return match[1] === 'codename' ? { codename: value } : { external_id: value };
}

/**
 * The `path` form (Learn text): `/name`, `/terms`, `/terms/<ref>[/…/<ref>][/name|/codename|/terms]`.
 * The last reference segment names the term, the segment after it the property.
 */
function readPath(path: string): { reference: Reference | null; property: string | undefined } | null {
  const segments = path.split(/(?<!\\)\//).filter((s) => s !== '');
  let last = -1;
  let reference: Reference | null = null;
  for (const [i, s] of segments.entries()) {
    const ref = segmentReference(s);
    if (ref) {
      last = i;
      reference = ref;
    } else if (s !== 'terms' && i < segments.length - 1) return null;
  }
  const rest = segments.slice(last + 1);
  if (rest.length > 1) return null;
  return { reference, property: rest[0] };
}

function readOperation(raw: unknown, index: number, problems: Problems): Operation | null {
  const path = `[${index}]`;
  if (!isRecord(raw)) {
    problems.add(path, operationMessage(index, 'An operation must be an object.'));
    return null;
  }
  const op = opNameOf(raw['op'], ['replace', 'remove', 'addInto', 'addinto', 'move']);
  if (op === '') {
    problems.add(
      at(path, 'op'),
      operationMessage(index, 'op must be addInto, remove, replace or move (case-sensitive).'),
    );
    return null;
  }
  let reference = optionalReference(raw['reference'], at(path, 'reference'), problems);
  let property = raw['property_name'];
  if (raw['reference'] === undefined && typeof raw['path'] === 'string') {
    const parsed = readPath(raw['path']);
    if (!parsed) {
      problems.add(at(path, 'path'), operationMessage(index, `The path '${raw['path']}' is not valid.`));
      return null;
    }
    reference = parsed.reference;
    // `addInto` at `/terms` or `/terms/<ref>/terms` names the parent, not a property.
    property = property ?? (op === 'addinto' ? undefined : parsed.property);
  }
  return {
    index,
    op,
    reference,
    property,
    value: raw['value'],
    before: optionalReference(raw['before'], at(path, 'before'), problems),
    after: optionalReference(raw['after'], at(path, 'after'), problems),
    under: optionalReference(raw['under'], at(path, 'under'), problems),
  };
}

function applyOne(draft: TaxonomyDraft, op: Operation, problems: Problems, ctx: TermContext): void {
  const path = `[${op.index}]`;
  const fail = (field: string, message: string) => problems.add(at(path, field), operationMessage(op.index, message));
  const locate = (ref: Reference, field: string) => {
    const found = findTerm(draft.terms, ref);
    if (!found) fail(field, 'The referenced object was not found.');
    return found;
  };
  if (!problems.isEmpty) return;
  switch (op.op) {
    case 'replace': {
      const target = op.reference === null ? null : locate(op.reference, 'reference');
      if (op.reference !== null && !target) return;
      const valuePath = at(path, 'value');
      if (op.property === 'name') {
        const name = readName(op.value, valuePath, problems, taxonomyNameMax);
        if (name !== null) (target?.term ?? draft).name = name;
      } else if (op.property === 'codename') {
        if (checkCodename(op.value, valuePath, problems, target ? termCodenameMax : undefined))
          (target?.term ?? draft).codename = op.value;
      } else if (op.property === 'terms') {
        const terms = parseTerms(op.value, valuePath, problems, ctx);
        if (problems.isEmpty) (target?.term ?? draft).terms = terms;
        fillCodenames(draft.terms);
      } else fail('property_name', 'property_name must be name, codename or terms.');
      return;
    }
    case 'remove': {
      if (op.reference === null) return fail('reference', 'Provide a reference to the term to remove.');
      const target = locate(op.reference, 'reference');
      target?.siblings.splice(target.index, 1);
      return;
    }
    case 'addinto': {
      const parent = op.reference === null ? null : locate(op.reference, 'reference');
      if (op.reference !== null && !parent) return;
      const values = Array.isArray(op.value) ? op.value : [op.value];
      const terms = values.flatMap((v, i) => {
        const term = parseTerm(
          v,
          Array.isArray(op.value) ? at(at(path, 'value'), i) : at(path, 'value'),
          problems,
          ctx,
        );
        return term ? [term] : [];
      });
      if (op.before && op.after) return fail('after', 'Provide either before or after, not both.');
      const siblings = parent ? parent.term.terms : draft.terms;
      let position = siblings.length;
      const anchor = op.before ?? op.after;
      if (anchor) {
        const found = findTerm(siblings, anchor);
        if (!found || found.siblings !== siblings)
          return fail(op.before ? 'before' : 'after', 'The referenced sibling term was not found.');
        position = found.index + (op.after ? 1 : 0);
      }
      if (!problems.isEmpty) return;
      siblings.splice(position, 0, ...terms);
      fillCodenames(draft.terms);
      return;
    }
    case 'move': {
      if (op.reference === null) return fail('reference', 'Provide a reference to the term to move.');
      const anchors = [op.before, op.after, op.under].filter((r) => r !== null);
      if (anchors.length !== 1) return fail('before', 'Provide exactly one of before, after or under.');
      const moved = locate(op.reference, 'reference');
      if (!moved) return;
      moved.siblings.splice(moved.index, 1);
      const field = op.before ? 'before' : op.after ? 'after' : 'under';
      const target = findTerm(draft.terms, anchors[0] as Reference);
      if (!target) {
        const isInside = findTerm([moved.term], anchors[0] as Reference) !== null;
        return fail(
          field,
          isInside
            ? 'A term cannot be moved next to or under itself or its descendants.'
            : 'The referenced object was not found.',
        );
      }
      if (op.under) target.term.terms.push(moved.term);
      else target.siblings.splice(target.index + (op.after ? 1 : 0), 0, moved.term);
      return;
    }
    default:
      assertNever(op.op, 'taxonomy operation');
  }
}
