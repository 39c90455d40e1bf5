import type { EmbeddingProvider } from './recs-port.ts';

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

/**
 * The default embedding provider, which needs no model: the hashing trick over words and word
 * pairs. Each feature (word weight 1, adjacent pair 0.5) is hashed to one of `dimensions` slots
 * with a hashed sign, counts are damped (1 + ln tf), and the vector is scaled to unit length, so
 * cosine similarity measures shared vocabulary. Deterministic and corpus-independent: an entry's
 * vector never changes when other items change.
 */
export function createHashedEmbedder(options: { dimensions?: number } = {}): EmbeddingProvider {
  const dimensions = options.dimensions ?? 256;
  const embedOne = (text: string): number[] => {
    const counts = new Map<string, number>();
    const ws = words(text);
    const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
    for (const [i, w] of ws.entries()) {
      add(w, 1);
      const next = ws[i + 1];
      if (next !== undefined) add(`${w} ${next}`, 0.5);
    }
    const vector = new Array<number>(dimensions).fill(0);
    for (const [feature, count] of counts) {
      const h = hash(feature);
      const slot = h % dimensions;
      const sign = (h >>> 31) & 1 ? -1 : 1;
      vector[slot] = (vector[slot] ?? 0) + sign * (1 + Math.log(count));
    }
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((v) => v / norm);
  };
  return {
    id: `hashed-words-${dimensions}`,
    dimensions,
    embed: (texts) => Promise.resolve(texts.map(embedOne)),
  };
}
