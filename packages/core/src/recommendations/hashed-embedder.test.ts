import { describe, expect, it } from 'vitest';
import { createHashedEmbedder, words } from './hashed-embedder.ts';

const cosine = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('hashed embedder', () => {
  const embedder = createHashedEmbedder();

  it('drops stop words and one-letter words, keeps property pairs whole', () => {
    expect(words('The Rocket of a  Mars mission, persona=developer')).toEqual([
      'rocket',
      'mars',
      'mission',
      'persona=developer',
    ]);
  });

  it('gives unit vectors of the configured size, the same for the same text', async () => {
    const [a, b] = await embedder.embed(['Rockets reach orbit', 'Rockets reach orbit']);
    expect(a).toHaveLength(512);
    expect(cosine(a!, a!)).toBeCloseTo(1, 6);
    expect(b).toEqual(a);
  });

  it('weights the first line of a text of several lines (the name) by titleWeight', async () => {
    const text = 'Rocket\nSourdough';
    const [titled, space, cook] = await embedder.embed([text, 'rocket', 'sourdough']);
    expect(embedder.id).toBe('hashed-words-title2-x4-512');
    // Rocket counts twice sourdough: cosines 2/√5 and 1/√5.
    expect(cosine(titled!, space!)).toBeCloseTo(2 / Math.sqrt(5), 1);
    expect(cosine(titled!, cook!)).toBeCloseTo(1 / Math.sqrt(5), 1);
    expect(cosine(titled!, space!)).toBeGreaterThan(cosine(titled!, cook!) + 0.3);
    const flat = createHashedEmbedder({ titleWeight: 1, slots: 1 });
    expect(flat.id).toBe('hashed-words-512');
    const [even, flatSpace, flatCook] = await flat.embed([text, 'rocket', 'sourdough']);
    expect(cosine(even!, flatSpace!)).toBeCloseTo(cosine(even!, flatCook!), 6);
  });

  it('spreads each feature over four signed slots of equal share', async () => {
    const [one] = await embedder.embed(['rocket']);
    const nonZero = one!.filter((x) => x !== 0);
    expect(nonZero).toHaveLength(4);
    expect(nonZero.every((x) => Math.abs(Math.abs(x) - 0.5) < 1e-9)).toBe(true);
  });

  it('puts texts on one topic nearer each other than texts on another', async () => {
    const [space1, space2, cook] = await embedder.embed([
      'Rocket launch to Mars orbit with a new rocket engine',
      'The Mars rocket engine test before the orbit launch',
      'Baking bread with sourdough starter and flour',
    ]);
    expect(cosine(space1!, space2!)).toBeGreaterThan(0.5);
    expect(cosine(space1!, cook!)).toBeLessThan(0.2);
  });
});
