import { checkCodename, isRecord, Problems, type Reference } from '../shared/index.ts';
import type { IdAssigner } from './ids.ts';
import type { ModelLookups } from './lookups.ts';
import type { ElementType } from './model.ts';
import { opProblem, type ParsedOp, type Segment } from './patch-parse.ts';

type Obj = Record<string, unknown>;

/** A type or snippet in its wire form, changed by operations before it is read and checked as a whole. */
export interface Draft {
  name: unknown;
  codename: unknown;
  /** null for snippets. */
  content_groups: Obj[] | null;
  elements: Obj[];
}

export interface PatchContext {
  readonly draft: Draft;
  readonly ids: IdAssigner;
  readonly lookups: ModelLookups;
  /** Which operation last changed an object (element or group id, `name`, `codename`). */
  readonly touched: Map<string, number>;
}

const common = ['name', 'guidelines', 'is_required', 'is_non_localizable', 'codename', 'content_group'];
const limits = ['image_width_limit', 'image_height_limit'];
const stringLists = [
  'allowed_blocks',
  'allowed_text_blocks',
  'allowed_formatting',
  'allowed_table_blocks',
  'allowed_table_text_blocks',
  'allowed_table_formatting',
];
const refLists = ['allowed_content_types', 'allowed_item_link_types', 'allowed_elements'];

/** Properties a `replace` may change, per element kind; `type`, `id` and `external_id` never. */
const replaceable: Record<ElementType, readonly string[]> = {
  text: [...common, 'maximum_text_length', 'validation_regex', 'default'],
  rich_text: [
    ...common,
    'maximum_text_length',
    'maximum_image_size',
    'allowed_content_types',
    'allowed_item_link_types',
    ...limits,
    'allowed_image_types',
    ...stringLists,
  ],
  number: [...common, 'default'],
  date_time: [...common, 'default'],
  multiple_choice: [...common, 'mode', 'options', 'default'],
  asset: [...common, 'asset_count_limit', 'maximum_file_size', 'allowed_file_types', ...limits, 'default'],
  modular_content: [...common, 'item_count_limit', 'allowed_content_types', 'default'],
  subpages: [...common, 'item_count_limit', 'allowed_content_types', 'default'],
  taxonomy: [...common, 'taxonomy_group', 'term_count_limit', 'default'],
  url_slug: [...common, 'depends_on', 'validation_regex'],
  custom: [...common, 'source_url', 'json_parameters', 'allowed_elements'],
  guidelines: ['guidelines', 'codename', 'content_group'],
  snippet: ['content_group'],
};

class OpFailure extends Error {}

function isRefMatch(o: Obj, ref: Reference, ids: IdAssigner, prefix = ''): boolean {
  if ('id' in ref) return o['id'] === ids.mapped(ref.id);
  if ('external_id' in ref) return o['external_id'] === ref.external_id;
  return o['codename'] === ref.codename || (prefix !== '' && o['codename'] === `${prefix}${ref.codename}`);
}

function asList(value: unknown): Obj[] {
  return Array.isArray(value) ? (value as Obj[]) : [];
}

/** Applies one operation to the draft; a failure adds "Invalid operation with index 'N': …". */
export async function applyOperation(op: ParsedOp, c: PatchContext, problems: Problems): Promise<void> {
  try {
    await apply(op, c);
  } catch (error) {
    if (!(error instanceof OpFailure)) throw error;
    opProblem(problems, op.index, null, error.message);
  }
}

function fail(message: string): never {
  throw new OpFailure(message);
}

function elementPrefix(c: PatchContext): string {
  return c.lookups.container.kind === 'snippet' ? `${String(c.draft.codename)}__` : '';
}

function find(list: Obj[], ref: Segment | undefined, c: PatchContext, prefix = ''): number {
  if (ref === undefined || typeof ref === 'string')
    fail('The path must reference an object as id:…, codename:… or external_id:….');
  const i = list.findIndex((o) => isRefMatch(o, ref, c.ids, prefix));
  if (i < 0) fail('The referenced object was not found.');
  return i;
}

/** Inserts at the position named by `before`/`after` (a sibling), else at the end. */
function insert(list: unknown[], item: unknown, op: ParsedOp, matches: (o: unknown, ref: Reference) => boolean) {
  const anchor = op.before ?? op.after;
  if (!anchor) {
    list.push(item);
    return;
  }
  const i = list.findIndex((o) => matches(o, anchor));
  if (i < 0) fail(`The object named in ${op.before ? 'before' : 'after'} was not found.`);
  list.splice(op.before ? i : i + 1, 0, item);
}

function move(list: unknown[], from: number, op: ParsedOp, matches: (o: unknown, ref: Reference) => boolean) {
  const [item] = list.splice(from, 1);
  const anchor = (op.before ?? op.after) as Reference;
  if (matches(item, anchor)) fail('An object cannot be moved relative to itself.');
  insert(list, item, op, matches);
}

async function apply(op: ParsedOp, c: PatchContext): Promise<void> {
  const [head, ref, prop, itemRef, itemProp, ...rest] = op.segments;
  const { draft } = c;
  if (rest.length > 0) fail('The path is too long.');
  if ((head === 'name' || head === 'codename') && ref === undefined) {
    if (op.op !== 'replace') fail(`Only replace applies to /${head}.`);
    draft[head] = op.value;
    c.touched.set(head, op.index);
    return;
  }
  if (head === 'content_groups') {
    if (draft.content_groups === null) fail('Content type snippets have no content groups.');
    return applyToGroups(op, c, draft.content_groups, [ref, prop, itemRef]);
  }
  if (head !== 'elements') fail(`Unknown path; use /name, /codename, /elements or /content_groups.`);
  const prefix = elementPrefix(c);
  const matchElement = (o: unknown, r: Reference) => isRecord(o) && isRefMatch(o, r, c.ids, prefix);
  if (ref === undefined) {
    if (op.op !== 'addinto') fail('Only addInto applies to /elements.');
    if (!isRecord(op.value)) fail('The value must be an element object.');
    const element = c.ids.element(op.value) as Obj;
    insert(draft.elements, element, op, matchElement);
    c.touched.set(element['id'] as string, op.index);
    return;
  }
  const at = find(draft.elements, ref, c, prefix);
  const element = draft.elements[at] as Obj;
  const elementId = element['id'] as string;
  c.touched.set(elementId, op.index);
  if (prop === undefined) {
    if (op.op === 'remove') {
      draft.elements.splice(at, 1);
      for (const e of draft.elements)
        if (Array.isArray(e['allowed_elements']))
          e['allowed_elements'] = asList(e['allowed_elements']).filter((x) => x['id'] !== elementId);
      return;
    }
    if (op.op === 'move') return move(draft.elements, at, op, matchElement);
    fail('Use remove or move on an element, or name one of its properties in the path.');
  }
  if (typeof prop !== 'string') fail('The path names no property of the element.');
  const type = element['type'] as ElementType;
  if (!(replaceable[type] ?? []).includes(prop)) fail(`The property '${prop}' of a ${type} element cannot be changed.`);
  if (itemRef === undefined && op.op === 'replace') {
    element[prop] = prop === 'options' ? asList(op.value).map((o) => c.ids.option(elementId, o)) : op.value;
    if (prop === 'codename' && prefix !== '' && typeof op.value === 'string' && !op.value.startsWith(prefix)) {
      if (!checkCodename(op.value, 'value', new Problems())) fail('The codename is not valid.');
      element[prop] = `${prefix}${op.value}`;
    }
    return;
  }
  await applyToList(op, c, element, prop, [itemRef, itemProp]);
}

function applyToGroups(op: ParsedOp, c: PatchContext, groups: Obj[], [ref, prop, extra]: (Segment | undefined)[]) {
  const matches = (o: unknown, r: Reference) => isRecord(o) && isRefMatch(o, r, c.ids);
  if (extra !== undefined) fail('The path is too long.');
  if (ref === undefined) {
    if (op.op !== 'addinto') fail('Only addInto applies to /content_groups.');
    if (!isRecord(op.value)) fail('The value must be a content group object.');
    const group = c.ids.group(op.value) as Obj;
    insert(groups, group, op, matches);
    c.touched.set(group['id'] as string, op.index);
    return;
  }
  const at = find(groups, ref, c);
  const group = groups[at] as Obj;
  c.touched.set(group['id'] as string, op.index);
  if (prop === undefined) {
    if (op.op === 'remove') return void groups.splice(at, 1);
    if (op.op === 'move') return move(groups, at, op, matches);
    fail('Use remove or move on a content group.');
  }
  if (op.op !== 'replace' || (prop !== 'name' && prop !== 'codename'))
    fail('Only the name and codename of a content group can be replaced.');
  group[prop] = op.value;
}

async function applyToList(
  op: ParsedOp,
  c: PatchContext,
  element: Obj,
  prop: string,
  [itemRef, itemProp]: (Segment | undefined)[],
): Promise<void> {
  const elementId = element['id'] as string;
  const isOptions = prop === 'options';
  if (!isOptions && !stringLists.includes(prop) && !refLists.includes(prop))
    fail(`Use replace on '${prop}'; it is not a list.`);
  const list = asList(element[prop]) as unknown[];
  element[prop] = list;
  const matchItem = async (o: unknown, r: Reference): Promise<boolean> => {
    if (!isRecord(o)) return false;
    if (isRefMatch(o, r, c.ids) || JSON.stringify(o) === JSON.stringify(r)) return true;
    if (isOptions || 'id' in r) return false;
    if (prop === 'allowed_elements') {
      const target = c.draft.elements.find((e) => isRefMatch(e, r, c.ids, elementPrefix(c)));
      return target !== undefined && o['id'] === target['id'];
    }
    return o['id'] === (await c.lookups.contentTypeId(r, '', new Problems()));
  };
  const syncMatch = (o: unknown, r: Reference) =>
    isRecord(o) && (isRefMatch(o, r, c.ids) || (!isOptions && JSON.stringify(o) === JSON.stringify(r)));
  if (itemRef === undefined) {
    if (op.op !== 'addinto') fail(`Use addInto or replace on '${prop}'.`);
    const value = isOptions ? c.ids.option(elementId, op.value) : op.value;
    if (stringLists.includes(prop)) return void list.push(value);
    return insert(list, value, op, syncMatch);
  }
  let at = -1;
  if (stringLists.includes(prop)) {
    if (typeof itemRef !== 'string') fail(`Name the value to remove, as in /allowed_blocks/text.`);
    at = list.indexOf(itemRef);
  } else if (typeof itemRef !== 'string') {
    for (const [i, o] of list.entries()) if (at < 0 && (await matchItem(o, itemRef))) at = i;
  } else fail('The path must reference the item as id:…, codename:… or external_id:….');
  if (at < 0) fail('The referenced object was not found.');
  if (itemProp !== undefined) {
    if (!isOptions || op.op !== 'replace' || (itemProp !== 'name' && itemProp !== 'codename'))
      fail('Only the name and codename of an option can be replaced.');
    (list[at] as Obj)[itemProp as string] = op.value;
    return;
  }
  if (op.op === 'move') return move(list, at, op, syncMatch);
  if (op.op !== 'remove') fail(`Use remove or move on an item of '${prop}'.`);
  const [removed] = list.splice(at, 1);
  const dflt = element['default'];
  if (isOptions && isRecord(removed) && isRecord(dflt) && isRecord(dflt['global'])) {
    const global = dflt['global'];
    global['value'] = asList(global['value']).filter((v) => v['id'] !== removed['id']);
  }
}
