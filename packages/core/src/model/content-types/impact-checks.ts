import type { StoredElements } from '../../content/variants/variant-record.ts';
import type { ElementBody } from './model.ts';

/*
 * The breaking changes between two versions of a definition's elements, each with a test of one
 * variant's stored values: an element removed while it holds a value, a count or length limit
 * narrowed below a value, an allowed content type removed while linked items or components are
 * of it, a multiple-choice option removed while selected. Elements are matched by id.
 */

export interface VariantCheck {
  readonly kind: 'element_removed' | 'limit_narrowed' | 'allowed_type_removed' | 'option_removed';
  readonly element: { readonly id: string; readonly codename: string; readonly name: string };
  /** What the change does, in the words the confirmation shows. */
  readonly message: string;
  /** The ids of linked items whose types `breaks` needs (checks of allowed types only). */
  readonly linkedOf?: (elements: StoredElements) => string[];
  readonly breaks: (elements: StoredElements, typeOfItem: ReadonlyMap<string, string>) => boolean;
}

type Limit = { value?: unknown; condition?: unknown; applies_to?: unknown } | null | undefined;

function ids(value: unknown): string[] {
  return Array.isArray(value) ? value.flatMap((v: { id?: unknown }) => (typeof v?.id === 'string' ? [v.id] : [])) : [];
}

function hasValue(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.replace(/<[^>]*>/g, '').trim() !== '' || /<(object|figure)\b/.test(value);
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** Whether `count` keeps a `{value, condition}` count limit (at_most by default). */
function keepsCount(limit: Limit, count: number): boolean {
  if (!limit || typeof limit.value !== 'number') return true;
  if (count === 0) return true;
  if (limit.condition === 'exactly') return count === limit.value;
  if (limit.condition === 'at_least') return count >= limit.value;
  return count <= limit.value;
}

function textOf(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/g, 'x');
}

/** Whether a text keeps a `{value, applies_to}` length limit. */
function keepsLength(limit: Limit, value: unknown, isHtml: boolean): boolean {
  if (!limit || typeof limit.value !== 'number' || typeof value !== 'string') return true;
  const text = isHtml ? textOf(value) : value;
  const length =
    limit.applies_to === 'words'
      ? text.split(/\s+/).filter((w) => w !== '').length
      : text.replace(/\s+/g, ' ').trim().length;
  return length <= limit.value;
}

const countLimits: Readonly<Record<string, string>> = {
  modular_content: 'item_count_limit',
  subpages: 'item_count_limit',
  asset: 'asset_count_limit',
  taxonomy: 'term_count_limit',
};

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The checks of every breaking change from `before` to `after`. */
export function breakingChecks(before: readonly ElementBody[], after: readonly ElementBody[]): VariantCheck[] {
  const next = new Map(after.map((e) => [e.id, e] as const));
  const checks: VariantCheck[] = [];
  for (const old of before) {
    const label = typeof old['name'] === 'string' ? old['name'] : old.codename;
    const element = { id: old.id, codename: old.codename, name: label };
    const now = next.get(old.id);
    if (old.type === 'guidelines' || old.type === 'snippet') continue;
    const valueOf = (elements: StoredElements) => elements[old.id]?.value;
    if (!now) {
      checks.push({
        kind: 'element_removed',
        element,
        message: `The element '${label}' is removed; its values are lost.`,
        breaks: (els) => hasValue(valueOf(els)),
      });
      continue;
    }
    const countKey = countLimits[old.type];
    if (countKey && !same(old[countKey], now[countKey])) {
      const limit = now[countKey] as Limit;
      checks.push({
        kind: 'limit_narrowed',
        element,
        message: `The limit of '${label}' changes; some values no longer keep it.`,
        breaks: (els) => !keepsCount(limit, ids(valueOf(els)).length),
      });
    }
    if (
      (old.type === 'text' || old.type === 'rich_text') &&
      !same(old['maximum_text_length'], now['maximum_text_length'])
    ) {
      const limit = now['maximum_text_length'] as Limit;
      checks.push({
        kind: 'limit_narrowed',
        element,
        message: `The text length limit of '${label}' changes; some texts are longer.`,
        breaks: (els) => !keepsLength(limit, valueOf(els), old.type === 'rich_text'),
      });
    }
    if (old.type === 'multiple_choice') {
      const kept = new Set(ids(now['options']));
      const removed = ids(old['options']).filter((id) => !kept.has(id));
      if (removed.length > 0)
        checks.push({
          kind: 'option_removed',
          element,
          message: `Options of '${label}' are removed; items that chose them lose the choice.`,
          breaks: (els) => ids(valueOf(els)).some((id) => removed.includes(id)),
        });
    }
    if (old.type === 'modular_content' || old.type === 'subpages' || old.type === 'rich_text') {
      const was = ids(old['allowed_content_types']);
      const allowed = new Set(ids(now['allowed_content_types']));
      // An empty list allows every type: narrowing is a list that drops one, or any list after none.
      const isNarrowed = allowed.size > 0 && (was.length === 0 || was.some((id) => !allowed.has(id)));
      if (isNarrowed) {
        // Rich text: its components (linked items inside rich text are not checked).
        const linkedOf = (els: StoredElements) => (old.type === 'rich_text' ? [] : ids(valueOf(els)));
        checks.push({
          kind: 'allowed_type_removed',
          element,
          message: `'${label}' allows fewer content types; some linked items or components are of the others.`,
          linkedOf,
          breaks: (els, typeOf) => {
            const components = (els[old.id]?.components ?? []).map((c) => c.type.id);
            const linked = linkedOf(els).flatMap((id) => {
              const t = typeOf.get(id);
              return t ? [t] : [];
            });
            return [...components, ...linked].some((t) => !allowed.has(t));
          },
        });
      }
    }
  }
  return checks;
}
