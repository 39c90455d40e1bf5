import { describe, expect, it } from 'vitest';
import { corpusTopics, generateCorpus, topicVocabularies } from './corpus.ts';

const shared = (a: readonly string[], b: readonly string[]) => [...new Set(a)].filter((w) => b.includes(w));

describe('topic vocabularies', () => {
  it('without overlap are the topics as they are, sharing almost no word', () => {
    const vocabularies = topicVocabularies(0);
    expect(vocabularies).toEqual(corpusTopics);
    const topics = Object.values(vocabularies);
    const pairs = topics.flatMap((a, i) => topics.slice(i + 1).map((b) => shared(a, b)));
    // "hedge" (finance, gardening) is the one word two topics share.
    expect(pairs.flat()).toEqual(['hedge']);
  });

  it('with overlap k, each topic shares exactly k words with the next and the one before', () => {
    const vocabularies = Object.values(topicVocabularies(6));
    for (const [i, words] of vocabularies.entries()) {
      expect(words).toHaveLength(20);
      const next = vocabularies[(i + 1) % vocabularies.length]!;
      expect(shared(words, next)).toHaveLength(6);
      // Topics two apart share nothing: the overlap is between neighbours only.
      expect(shared(words, vocabularies[(i + 2) % vocabularies.length]!)).toEqual([]);
    }
  });

  it('refuses an overlap that would leave a topic no words of its own', () => {
    expect(() => topicVocabularies(11)).toThrow(RangeError);
    expect(() => topicVocabularies(-1)).toThrow(RangeError);
  });

  it('an overlapping corpus writes articles whose words are shared with a neighbouring topic', () => {
    const words = (body: string) => body.split(' ');
    const plain = generateCorpus({ perTopic: 20, borrowed: 0 });
    const overlapping = generateCorpus({ perTopic: 20, borrowed: 0, overlap: 6 });
    const cooking = corpusTopics['cooking']!;
    const spaceWithCooking = (corpus: typeof plain) =>
      corpus.filter((c) => c.topic === 'space' && words(c.body).some((w) => cooking.includes(w))).length;
    expect(spaceWithCooking(plain)).toBe(0);
    expect(spaceWithCooking(overlapping)).toBeGreaterThan(10);
  });
});
