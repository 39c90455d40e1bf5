import type { CorpusStats, EmbeddingProvider } from './recs-port.ts';

/**
 * Words too common to tell topics apart (English). They neither count as words nor start or end
 * a word pair.
 */
const stopWords = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each few for from further had has have having he her here ' +
    'hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or ' +
    'other our ours out over own same she should so some such than that the their theirs them then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why ' +
    'will with you your yours'
  ).split(' '),
);

/** Lower-case words of letters and digits (any script), without stop words and one-letter words. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}][\p{L}\p{N}'_=-]*/gu)) {
    const w = match[0].replace(/'s$/, '');
    if (w.length > 1 && !stopWords.has(w)) out.push(w);
  }
  return out;
}

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Smoothed inverse document frequency; 1 without statistics. */
function idf(stats: CorpusStats | undefined, term: string): number {
  if (!stats || stats.documents === 0) return 1;
  return Math.log((stats.documents + 1) / (stats.documentFrequency(term) + 1)) + 1;
}

/**
 * The default embedding provider, which needs no model: TF-IDF over words and word pairs, reduced
 * to `dimensions` numbers by the hashing trick. Each feature (word weight 1, adjacent pair 0.5)
 * is hashed to `slots` slots (default 4) with hashed signs, each getting 1/√slots of it, so a
 * collision with another text's feature moves their similarity a fraction as much; its weight is the damped count (1 + ln tf) times the
 * word's smoothed IDF among the project's entries (a pair: the mean of its words'), times
 * `titleWeight` (default 2) for the words of the first line of a text of several lines, the item's
 * name (`embeddedText`); the vector is scaled to unit length, so cosine similarity measures
 * shared, distinctive vocabulary, the name's most. Deterministic for the same text and statistics.
 */
export function createHashedEmbedder(
  options: { dimensions?: number; titleWeight?: number; slots?: number } = {},
): EmbeddingProvider {
  const dimensions = options.dimensions ?? 512;
  const titleWeight = options.titleWeight ?? 2;
  const slots = options.slots ?? 4;
  const embedOne = (text: string, stats: CorpusStats | undefined): number[] => {
    const counts = new Map<string, { count: number; weight: number }>();
    const add = (feature: string, weight: number) => {
      const seen = counts.get(feature);
      if (seen) seen.count += 1;
      else counts.set(feature, { count: 1, weight });
    };
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      const ws = words(line);
      const scale = index === 0 && lines.length > 1 ? titleWeight : 1;
      for (const [i, w] of ws.entries()) {
        add(w, scale * idf(stats, w));
        const next = ws[i + 1];
        if (next !== undefined) add(`${w} ${next}`, (0.5 * (idf(stats, w) + idf(stats, next))) / 2);
      }
    }
    const vector = new Array<number>(dimensions).fill(0);
    for (const [feature, { count, weight }] of counts)
      for (let k = 0; k < slots; k++) {
        const h = hash(k === 0 ? feature : `${feature}\u0000${k}`);
        const slot = h % dimensions;
        const sign = (h >>> 31) & 1 ? -1 : 1;
        vector[slot] = (vector[slot] ?? 0) + (sign * (1 + Math.log(count)) * weight) / Math.sqrt(slots);
      }
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((v) => v / norm);
  };
  return {
    id:
      titleWeight === 1 && slots === 1
        ? `hashed-words-${dimensions}`
        : `hashed-words-title${titleWeight}-x${slots}-${dimensions}`,
    dimensions,
    embed: (texts, options) => Promise.resolve(texts.map((t) => embedOne(t, options?.stats))),
  };
}
