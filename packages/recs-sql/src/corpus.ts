import { addContentType, addItem, operator, publishVariant, upsertVariant, type CoreDeps } from '@lectern/core';

/**
 * A labelled corpus for tests and the quality benchmark: articles on six topics, each written
 * from its topic's vocabulary, a few words of another topic and common words, with a persona.
 * Deterministic per seed.
 */
export const corpusTopics: Readonly<Record<string, readonly string[]>> = {
  space:
    'rocket orbit mars launch astronaut satellite telescope galaxy lunar spacecraft nasa payload booster gravity planet comet asteroid cosmos module thrust'.split(
      ' ',
    ),
  cooking:
    'recipe flour oven sourdough butter garlic simmer roast dough sauce knead yeast spice kitchen bake onion saute broth pastry herb'.split(
      ' ',
    ),
  football:
    'goal striker midfield penalty referee league keeper tackle offside stadium coach match defender dribble corner transfer squad trophy kickoff header'.split(
      ' ',
    ),
  finance:
    'stock bond dividend portfolio inflation interest equity broker market hedge yield investor capital valuation fund earnings shares credit budget loan'.split(
      ' ',
    ),
  gardening:
    'compost seedling soil prune mulch tomato perennial greenhouse shovel fertilizer bloom weed irrigation rose hedge bulb harvest orchard shrub trowel'.split(
      ' ',
    ),
  music:
    'guitar melody chord rhythm concert album drummer vocal lyric tempo orchestra piano jazz tune symphony bass chorus studio band harmony'.split(
      ' ',
    ),
};
const commonWords =
  'today people first great new time year work life world way day good best make take great guide story look part place help team use idea plan start'.split(
    ' ',
  );
export const corpusPersonas = ['developer', 'owner', 'marketer'] as const;

export interface CorpusItem {
  readonly codename: string;
  readonly name: string;
  readonly topic: string;
  readonly persona: (typeof corpusPersonas)[number];
  readonly body: string;
}

/**
 * The vocabularies of the topics when each shares `overlap` of its 20 words with the next topic
 * (a ring: space–cooking–…–music–space): topic i keeps its first 20 − overlap words and takes the
 * first `overlap` of topic i + 1. Neighbouring topics then share `overlap` words, as real topics
 * share terms ("market" in finance and football), so a query or an article made of shared words
 * is ambiguous and precision@5 measures how well the index copes. Overlap 0: `corpusTopics`.
 */
export function topicVocabularies(overlap = 0): Readonly<Record<string, readonly string[]>> {
  const entries = Object.entries(corpusTopics);
  const size = Math.min(...entries.map(([, words]) => words.length));
  if (!(Number.isInteger(overlap) && overlap >= 0 && overlap <= size / 2))
    throw new RangeError(`overlap must be a whole number from 0 to ${size / 2}`);
  return Object.fromEntries(
    entries.map(([topic, words], i) => {
      const next = entries[(i + 1) % entries.length]![1];
      return [topic, [...words.slice(0, size - overlap), ...next.slice(0, overlap)]];
    }),
  );
}

/** Park–Miller: a small deterministic random source. */
function random(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

/**
 * `borrowed`: how many of an article's twelve topical words come from one other topic (default
 * 2); more makes topics harder to tell apart. `overlap`: words each topic's vocabulary shares
 * with the next topic (`topicVocabularies`; default 0).
 */
export function generateCorpus(options: {
  perTopic: number;
  seed?: number;
  borrowed?: number;
  overlap?: number;
}): CorpusItem[] {
  const borrowed = options.borrowed ?? 2;
  const vocabularies = topicVocabularies(options.overlap ?? 0);
  const next = random(options.seed ?? 42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const items: CorpusItem[] = [];
  for (const [topic, vocabulary] of Object.entries(vocabularies))
    for (let i = 0; i < options.perTopic; i++) {
      // Words of the topic and `borrowed` of another one (topics share words, as real ones do).
      const other = pick(Object.values(vocabularies).filter((v) => v !== vocabulary));
      const topical = [
        ...Array.from({ length: 12 - borrowed }, () => pick(vocabulary)),
        ...Array.from({ length: borrowed }, () => pick(other)),
      ];
      const common = Array.from({ length: 10 }, () => pick(commonWords));
      const body = [...topical, ...common].sort(() => next() - 0.5).join(' ');
      items.push({
        codename: `${topic}_${String(i).padStart(5, '0')}`,
        name: `${pick(vocabulary)} ${pick(commonWords)} ${pick(vocabulary)}`,
        topic,
        persona: pick(corpusPersonas),
        body,
      });
    }
  return items;
}

/**
 * Writes the corpus into a project through core operations: an `article` type (rich text body,
 * persona multiple choice) and one published article per corpus item.
 */
export async function writeCorpus(core: CoreDeps, options: { projectId: string; items: readonly CorpusItem[] }) {
  const input = { actor: operator, projectId: options.projectId };
  await addContentType(core, {
    ...input,
    body: {
      name: 'Article',
      codename: 'article',
      elements: [
        { name: 'Body', codename: 'body', type: 'rich_text' },
        {
          name: 'Persona',
          codename: 'persona',
          type: 'multiple_choice',
          mode: 'multiple',
          options: corpusPersonas.map((p) => ({ name: p, codename: p })),
        },
      ],
    },
  });
  for (const item of options.items) await writeArticle(core, { ...input, item, isPublished: true });
}

/** Creates (or updates) one article of the corpus, published unless `isPublished` is false. */
export async function writeArticle(
  core: CoreDeps,
  options: { projectId: string; item: CorpusItem; isPublished: boolean },
) {
  const input = { actor: operator, projectId: options.projectId };
  const { item } = options;
  await addItem(core, { ...input, body: { name: item.name, codename: item.codename, type: { codename: 'article' } } });
  const key = { itemKey: { codename: item.codename }, languageKey: { codename: 'default' } };
  await upsertVariant(core, {
    ...input,
    ...key,
    body: {
      elements: [
        { element: { codename: 'body' }, value: `<p>${item.body}</p>` },
        { element: { codename: 'persona' }, value: [{ codename: item.persona }] },
      ],
    },
  });
  if (options.isPublished) await publishVariant(core, { ...input, ...key });
}
