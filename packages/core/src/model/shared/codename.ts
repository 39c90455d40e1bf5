import type { Problems } from './problems.ts';

/** Codename length limit (SPEC 2.1, 8: the latest Management description). */
export const codenameMax = 60;
const valid = /^[a-z_][a-z0-9_]*$/;

/**
 * Checks a codename set by the user: lowercase letters, digits and underscores, not starting with
 * a digit, 1 to 60 characters.
 */
export function checkCodename(value: unknown, path: string, problems: Problems, max = codenameMax): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max || !valid.test(value)) {
    problems.add(
      path,
      `must be 1 to ${max} characters of lowercase letters, digits and underscores, not starting with a digit`,
    );
    return false;
  }
  return true;
}

/**
 * A codename derived from a display name (SPEC 2.1 rule 6): lowercase, every run of other
 * characters replaced by `_`, a leading digit prefixed with `n`. When taken, the first seven hex
 * digits of the object's id are appended after `__`, as Kontent.ai does.
 */
export function generateCodename(options: {
  name: string;
  id: string;
  isTaken: (codename: string) => boolean;
  max?: number;
}): string {
  const max = options.max ?? codenameMax;
  let base = options.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (base === '') base = 'n';
  if (/^[0-9]/.test(base)) base = `n${base}`;
  base = base.slice(0, max);
  if (!options.isTaken(base)) return base;
  const suffix = `__${options.id.replaceAll('-', '').slice(0, 7)}`;
  const candidate = `${base.slice(0, max - suffix.length)}${suffix}`;
  if (!options.isTaken(candidate)) return candidate;
  const longer = `__${options.id.replaceAll('-', '').slice(0, 12)}`;
  return `${base.slice(0, max - longer.length)}${longer}`;
}
