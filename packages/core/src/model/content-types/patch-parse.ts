import { at, isRecord, opNameOf, readReference, type Problems, type Reference } from '../shared/index.ts';
import { isAbsent } from './fields.ts';

export type OpName = 'addinto' | 'remove' | 'replace' | 'move';

/** A path segment: a property name, or a reference `id:…`, `codename:…`, `external_id:…`. */
export type Segment = string | Reference;

export interface ParsedOp {
  readonly index: number;
  readonly op: OpName;
  readonly segments: readonly Segment[];
  readonly value: unknown;
  readonly before: Reference | null;
  readonly after: Reference | null;
}

const opNames = ['addInto', 'addinto', 'remove', 'replace', 'move'];

/** Splits `/elements/external_id:a\/b/options` on unescaped slashes (reference §6.1). */
function splitPath(path: string): string[] | null {
  if (!path.startsWith('/')) return null;
  const out: string[] = [];
  let current = '';
  for (let i = 1; i < path.length; i++) {
    const ch = path[i] as string;
    if (ch === '\\' && path[i + 1] === '/') {
      current += '/';
      i++;
    } else if (ch === '/') {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.some((s) => s === '') ? null : out;
}

function toSegment(raw: string): Segment {
  const match = /^(id|codename|external_id):(.+)$/.exec(raw);
  if (!match) return raw;
  const value = match[2] as string;
  if (match[1] === 'id') return { id: value.toLowerCase() };
  return match[1] === 'codename' ? { codename: value } : { external_id: value };
}

export function opProblem(problems: Problems, index: number, key: string | null, message: string): void {
  problems.add(
    key === null ? `[${index}]` : at(`[${index}]`, key),
    `Invalid operation with index '${index}': ${message}`,
  );
}

/**
 * The segments an operation targets. `path` is the current form; the deprecated `reference`
 * (an element) and `property_name` of v2 beta are turned into the same segments.
 */
function segmentsOf(op: Record<string, unknown>, index: number, name: OpName, problems: Problems): Segment[] | null {
  if (typeof op['path'] === 'string') {
    const parts = splitPath(op['path']);
    if (!parts) {
      opProblem(problems, index, 'path', `'${op['path']}' is not a valid path such as /elements/codename:my_element.`);
      return null;
    }
    return parts.map(toSegment);
  }
  if (!isAbsent(op['path'])) {
    opProblem(problems, index, 'path', 'must be a string');
    return null;
  }
  const segments: Segment[] = [];
  if (!isAbsent(op['reference'])) {
    const ref = readReference(op['reference'], `[${index}].reference`, problems);
    if (!ref) return null;
    segments.push('elements', ref);
  }
  if (typeof op['property_name'] === 'string' && op['property_name'] !== '') segments.push(op['property_name']);
  if (segments.length === 0 && name === 'addinto') segments.push('elements');
  if (segments.length === 0) {
    opProblem(problems, index, 'path', 'A path is required.');
    return null;
  }
  return segments;
}

/** Checks the form of every operation at once; the operations apply only when all are well formed. */
export function parseOperations(body: unknown, problems: Problems): ParsedOp[] {
  if (!Array.isArray(body) || body.length === 0) {
    problems.add(undefined, 'The body must be a non-empty array of operations.');
    return [];
  }
  const out: ParsedOp[] = [];
  for (const [index, op] of body.entries()) {
    if (!isRecord(op)) {
      opProblem(problems, index, null, 'must be an operation object {op, path, value}');
      continue;
    }
    const name = opNameOf(op['op'], opNames) as OpName | '';
    if (name === '') {
      opProblem(problems, index, 'op', 'op must be one of addInto, remove, replace, move (case-sensitive).');
      continue;
    }
    const segments = segmentsOf(op, index, name, problems);
    const before = isAbsent(op['before']) ? null : readReference(op['before'], `[${index}].before`, problems);
    const after = isAbsent(op['after']) ? null : readReference(op['after'], `[${index}].after`, problems);
    if (before && after) opProblem(problems, index, null, 'Use either before or after, not both.');
    if (name === 'move' && !before && !after) opProblem(problems, index, null, 'A move needs before or after.');
    if ((name === 'addinto' || name === 'replace') && !('value' in op))
      opProblem(problems, index, 'value', 'A value is required.');
    if (segments) out.push({ index, op: name, segments, value: op['value'], before, after });
  }
  return out;
}
