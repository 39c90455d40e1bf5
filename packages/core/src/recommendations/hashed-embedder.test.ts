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
