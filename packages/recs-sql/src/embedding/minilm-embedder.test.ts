import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@lectern/config';
import type { EmbeddingProvider } from '@lectern/core';
import { modelDirOf, openEmbedder, recsEmbeddingSettings } from './embedding-settings.ts';

// The real model: all-MiniLM-L6-v2 (int8 ONNX) that scripts/lib/models.sh installs from PyPI
// (scripts/test runs it first). Run through the settings, as the services open it.
const config = loadConfig({ settings: recsEmbeddingSettings, env: { ...process.env, LECTERN_RECS_EMBEDDING: 'onnx' } });
const modelDir = modelDirOf(config);
const cosine = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('all-MiniLM-L6-v2 through the ONNX provider', () => {
  let embedder: EmbeddingProvider;

  beforeAll(async () => {
    await access(join(modelDir, 'model.onnx')).catch(() => {
      throw new Error(`no model in ${modelDir}: run \`source scripts/lib/models.sh && lectern_models\``);
    });
    embedder = await openEmbedder(config);
  }, 120_000);

  it('gives 384-dimension unit vectors padded to the 512 of the vector index', async () => {
    expect(embedder.dimensions).toBe(512);
    expect(embedder.id).toBe('onnx-8199be6f699a-384-title1-pad512');
    const [v] = await embedder.embed(['A man is eating food.']);
    expect(cosine(v!, v!)).toBeCloseTo(1, 5);
    expect(v!.slice(384).every((x) => x === 0)).toBe(true);
    expect(v!.slice(0, 384).filter((x) => x !== 0).length).toBeGreaterThan(300);
  }, 60_000);

  it('ranks sentences by meaning, not shared words', async () => {
    const [food, bread, movie, cheetah] = await embedder.embed([
      'A man is eating food.',
      'A man is eating a piece of bread.',
      'The new movie is awesome.',
      'A cheetah is running behind its prey.',
    ]);
    // sentence-transformers gives 0.755 for the first pair with the float model.
    expect(cosine(food!, bread!)).toBeGreaterThan(0.7);
    expect(cosine(food!, bread!)).toBeLessThan(0.8);
    expect(cosine(food!, movie!)).toBeLessThan(0.2);
    expect(cosine(food!, cheetah!)).toBeLessThan(0.3);
    // No word in common, same topic.
    const [launch, astronaut, baking] = await embedder.embed([
      'Rocket launch delayed by weather',
      'Astronauts prepare for the flight to orbit',
      'Knead the sourdough and bake it in a hot oven',
    ]);
    expect(cosine(launch!, astronaut!)).toBeGreaterThan(cosine(launch!, baking!) + 0.15);
  }, 60_000);
});
