import { at, characterCount, checkPattern, isRecord, patternProblem, type Problems } from '../shared/index.ts';

/** Display names of types, snippets, groups, elements and options (SPEC 8, the latest limit). */
export const nameMax = 200;

export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

export function readName(value: unknown, path: string, problems: Problems): string | null {
  if (typeof value !== 'string' || value.trim().length === 0 || characterCount(value) > nameMax) {
    problems.add(path, `Provide a nonempty name which fits within ${nameMax} characters.`);
    return null;
  }
  return value;
}

/** An optional external id: absent, or a non-empty string. */
export function readExternalId(value: unknown, path: string, problems: Problems): string | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string' || value.length === 0) {
    problems.add(path, 'must be a non-empty string');
    return undefined;
  }
  return value;
}

export function readBoolean(value: unknown, path: string, problems: Problems, fallback = false): boolean {
  if (isAbsent(value)) return fallback;
  if (typeof value !== 'boolean') {
    problems.add(path, 'must be true or false');
    return fallback;
  }
  return value;
}

export function readNullableString(value: unknown, path: string, problems: Problems): string | null {
  if (isAbsent(value)) return null;
  if (typeof value !== 'string') {
    problems.add(path, 'must be a string or null');
    return null;
  }
  return value;
}

export function readChoice<T extends string>(
  value: unknown,
  choices: readonly T[],
  path: string,
  problems: Problems,
  fallback: T,
): T {
  if (isAbsent(value)) return fallback;
  if (typeof value !== 'string' || !choices.includes(value as T)) {
    problems.add(path, `must be one of ${choices.map((c) => `"${c}"`).join(', ')}`);
    return fallback;
  }
  return value as T;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

/** A size in bytes (`maximum_file_size`, `maximum_image_size`): a positive integer or null. */
export function readBytes(value: unknown, path: string, problems: Problems): number | null {
  if (isAbsent(value)) return null;
  if (!isPositiveInteger(value)) {
    problems.add(path, 'must be a positive whole number of bytes or null');
    return null;
  }
  return value;
}

const conditions = ['at_most', 'exactly', 'at_least'] as const;

/** A count or size limit `{value, condition}`, or null. */
export function readLimit(
  value: unknown,
  path: string,
  problems: Problems,
): { value: number; condition: (typeof conditions)[number] } | null {
  if (isAbsent(value)) return null;
  if (!isRecord(value)) {
    problems.add(path, 'must be an object {value, condition} or null');
    return null;
  }
  if (!isPositiveInteger(value['value'])) problems.add(at(path, 'value'), 'must be a positive whole number');
  if (typeof value['condition'] !== 'string' || !conditions.includes(value['condition'] as 'exactly'))
    problems.add(at(path, 'condition'), 'must be one of "at_most", "exactly", "at_least"');
  if (!isPositiveInteger(value['value']) || !conditions.includes(value['condition'] as 'exactly')) return null;
  return { value: value['value'], condition: value['condition'] as (typeof conditions)[number] };
}

/** `maximum_text_length`: `{value, applies_to: words|characters}` or null. */
export function readTextLength(
  value: unknown,
  path: string,
  problems: Problems,
): { value: number; applies_to: 'words' | 'characters' } | null {
  if (isAbsent(value)) return null;
  if (!isRecord(value)) {
    problems.add(path, 'must be an object {value, applies_to} or null');
    return null;
  }
  const appliesTo = value['applies_to'];
  const isValid = isPositiveInteger(value['value']) && (appliesTo === 'words' || appliesTo === 'characters');
  if (!isPositiveInteger(value['value'])) problems.add(at(path, 'value'), 'must be a positive whole number');
  if (appliesTo !== 'words' && appliesTo !== 'characters')
    problems.add(at(path, 'applies_to'), 'must be "words" or "characters"');
  return isValid ? { value: value['value'] as number, applies_to: appliesTo } : null;
}

/** Reads a property case-insensitively (the .NET SDK sends `Regex` and `Flags`). */
function property(value: Record<string, unknown>, name: string): unknown {
  if (name in value) return value[name];
  const key = Object.keys(value).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : value[key];
}

/**
 * `validation_regex` of text and URL slug elements, or null. The pattern must compile, within
 * `maxPatternLength`; one with lookaround or backreferences is accepted too (Kontent.ai's own
 * examples have them) and runs under the backtracking budget (`matchPattern`).
 * `element` names the element in the problem (its codename or name, when sent).
 */
export function readValidationRegex(value: unknown, path: string, problems: Problems, element: string | null = null) {
  if (isAbsent(value)) return null;
  if (!isRecord(value)) {
    problems.add(path, 'must be an object {regex, flags, validation_message, is_active} or null');
    return null;
  }
  const regex = property(value, 'regex');
  const flags = readNullableString(property(value, 'flags'), at(path, 'flags'), problems);
  const message = readNullableString(property(value, 'validation_message'), at(path, 'validation_message'), problems);
  const isActive = readBoolean(property(value, 'is_active'), at(path, 'is_active'), problems, true);
  // Kontent.ai exports an unused rule as {"regex":"","flags":null,"validation_message":"","is_active":false}.
  if (regex === '' && !isActive) return { regex, flags, validation_message: message, is_active: isActive };
  if (typeof regex !== 'string' || regex.length === 0) {
    problems.add(at(path, 'regex'), 'must be a non-empty regular expression (an empty one only when inactive)');
    return null;
  }
  const check = checkPattern(regex, flags);
  if (check.kind === 'invalid') {
    problems.add(at(path, 'regex'), patternProblem(check, element, regex));
    return null;
  }
  return { regex, flags, validation_message: message, is_active: isActive };
}

/**
 * A list of allowed values (rich text limitations): `[]` means all are allowed, so a list naming
 * every value is refused, as Kontent.ai does; duplicates and unknown values are refused too.
 */
export function readAllowedList(
  value: unknown,
  choices: readonly string[],
  path: string,
  problems: Problems,
): string[] {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) {
    problems.add(path, 'must be an array');
    return [];
  }
  const out: string[] = [];
  for (const [i, v] of value.entries()) {
    if (typeof v !== 'string' || !choices.includes(v)) {
      problems.add(at(path, i), `must be one of ${choices.map((c) => `"${c}"`).join(', ')}`);
    } else if (out.includes(v)) {
      problems.add(at(path, i), `"${v}" is listed twice`);
    } else out.push(v);
  }
  if (choices.length > 1 && out.length === choices.length) {
    problems.add(
      path,
      'Cannot allow every limitation type explicitly. Remove all limitation types in order to allow everything.',
    );
  }
  return out;
}
