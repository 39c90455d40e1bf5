import { isRecord, type Problems } from '../../model/shared/problems.ts';
import { isUuid } from '../../domain/uuid.ts';
import { characterCount, unstorableText } from '../../model/shared/text.ts';
import type { TextAnchor } from './comment-record.ts';

/**
 * Bounds of comments, checked before anything is read from the store, so a hostile body costs
 * little: the text of a comment, the people it mentions, the anchor's parts, and how many threads
 * a variant and comments a thread may hold (which bounds every list answer too).
 */
export const commentLimits = Object.freeze({
  textChars: 2_000,
  mentions: 20,
  quoteChars: 1_000,
  contextChars: 64,
  threadsPerVariant: 500,
  commentsPerThread: 100,
  /** All threads of a variant together: a list answer stays within a few megabytes. */
  commentsPerVariant: 1_000,
});

export interface CommentBody {
  readonly text: string;
  readonly mentions: readonly string[];
}

function readText(body: Record<string, unknown>, problems: Problems): string {
  const text = body['text'];
  if (typeof text !== 'string' || text.trim() === '') {
    problems.add('text', "The 'text' property must be a non-empty string.");
    return '';
  }
  const length = characterCount(text);
  if (length > commentLimits.textChars)
    problems.add('text', `A comment holds at most ${commentLimits.textChars} characters; this one has ${length}.`);
  const why = unstorableText(text);
  if (why !== null) problems.add('text', `The text ${why}`);
  return text.trim();
}

function readMentions(body: Record<string, unknown>, problems: Problems): string[] {
  const raw = body['mentions'];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.add('mentions', 'The \'mentions\' property must be an array of user references ({ "id": … }).');
    return [];
  }
  if (raw.length > commentLimits.mentions) {
    problems.add(
      'mentions',
      `A comment mentions at most ${commentLimits.mentions} people; this one mentions ${raw.length}.`,
    );
    return [];
  }
  const ids = new Set<string>();
  raw.forEach((entry, i) => {
    const id = isRecord(entry) ? entry['id'] : undefined;
    if (typeof id !== 'string' || !isUuid(id))
      problems.add(`mentions[${i}]`, 'A mention is a user reference { "id": "<user id>" }.');
    else ids.add(id.toLowerCase());
  });
  return [...ids];
}

/** The text and mentions of a comment body (a new thread's, a reply's or an edit's). */
export function readCommentBody(raw: unknown, problems: Problems): CommentBody {
  if (!isRecord(raw)) {
    problems.add(undefined, 'The body must be a JSON object.');
    return { text: '', mentions: [] };
  }
  return { text: readText(raw, problems), mentions: readMentions(raw, problems) };
}

function readContext(raw: Record<string, unknown>, key: 'prefix' | 'suffix', problems: Problems): string {
  const value = raw[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > commentLimits.contextChars) {
    problems.add(`anchor.${key}`, `'${key}' is a string of at most ${commentLimits.contextChars} characters.`);
    return '';
  }
  return value;
}

/** A new thread's anchor on a rich text selection (null: on the whole element). */
export function readAnchor(raw: unknown, problems: Problems): TextAnchor | null {
  if (raw === undefined || raw === null) return null;
  if (!isRecord(raw)) {
    problems.add('anchor', "The 'anchor' property is an object { quote, prefix, suffix, start } or null.");
    return null;
  }
  const quote = raw['quote'];
  if (typeof quote !== 'string' || quote.trim() === '' || quote.length > commentLimits.quoteChars)
    problems.add('anchor.quote', `'quote' is the selected text: 1 to ${commentLimits.quoteChars} characters.`);
  for (const key of ['quote', 'prefix', 'suffix'] as const) {
    const why = typeof raw[key] === 'string' ? unstorableText(raw[key]) : null;
    if (why !== null) problems.add(`anchor.${key}`, `'${key}' ${why}`);
  }
  const start = raw['start'];
  const isStartValid = typeof start === 'number' && Number.isSafeInteger(start) && start >= 0;
  if (!isStartValid)
    problems.add('anchor.start', "'start' is the selection's offset in the element's text (0 or more).");
  return {
    quote: typeof quote === 'string' ? quote : '',
    prefix: readContext(raw, 'prefix', problems),
    suffix: readContext(raw, 'suffix', problems),
    start: isStartValid ? start : 0,
  };
}

/** The element a new thread is on: `{ "id": … }` or `{ "codename": … }`. */
export function readElementRef(raw: unknown, problems: Problems): { id?: string; codename?: string } {
  if (isRecord(raw)) {
    if (typeof raw['id'] === 'string' && isUuid(raw['id'])) return { id: raw['id'].toLowerCase() };
    if (typeof raw['codename'] === 'string' && raw['codename'].length <= 200) return { codename: raw['codename'] };
  }
  problems.add(
    'element',
    'The \'element\' property is a reference to an element of the item\'s type: { "id": … } or { "codename": … }.',
  );
  return {};
}
