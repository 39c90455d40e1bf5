import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOnnxEmbedder } from './onnx-embedder.ts';
import { EmbeddingModelError } from './model-files.ts';
import { writeTinyModel } from './test-model.ts';

// A model built by the test (test-model.ts), run through onnxruntime-web and the real tokenizer:
// token vectors are axis-aligned, so the expected sentence vectors can be worked out by hand.
const words = ['rocket', 'orbit', 'flour', 'oven'];
const D = 8;
const axis = (k: number) => Array.from({ length: D }, (_, j) => (j === k ? 1 : 0));
const zero = Array.from({ length: D }, () => 0);
// [PAD] → axis 7 and [UNK] → axis 6 (visible if padding or unknown words leaked in), [CLS] → axis 0,
// [SEP] → nothing; rocket, orbit → axis 4; flour, oven → axis 5.
const table = [axis(7), axis(6), axis(0), zero, axis(4), axis(4), axis(5), axis(5)];
const dirs: string[] = [];
const model = async (options: { maxTokens?: number; pooling?: 'mean' | 'cls' } = {}) => {
  const dir = await writeTinyModel({ words, table, ...options });
  dirs.push(dir);
  return dir;
};
const round = (v: readonly number[]) => v.map((x) => Math.round(x * 1e4) / 1e4);
const r = Math.SQRT1_2;

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the ONNX embedding provider', () => {
  it('mean-pools the token vectors of the model and scales to unit length', async () => {
    const embedder = await createOnnxEmbedder({ modelDir: await model() });
    expect(embedder.dimensions).toBe(D);
    expect(embedder.id).toMatch(/^onnx-[0-9a-f]{12}-8-title1$/);
    const [mixed, space, unknown] = await embedder.embed(['Rocket FLOUR', 'orbit', 'zebra']);
    // [CLS] rocket flour [SEP]: (e0 + e4 + e5) / 4, normalized.
    const third = 1 / Math.sqrt(3);
    expect(round(mixed!)).toEqual(round([third, 0, 0, 0, third, third, 0, 0]));
    expect(round(space!)).toEqual(round([r, 0, 0, 0, r, 0, 0, 0]));
    expect(round(unknown!)).toEqual(round([r, 0, 0, 0, 0, 0, r, 0]));
  });

  it('gives each text the same vector alone or in a padded batch', async () => {
    const embedder = await createOnnxEmbedder({ modelDir: await model(), batchSize: 4 });
    const texts = ['rocket', 'oven oven oven flour orbit', 'flour rocket', 'orbit orbit orbit orbit orbit orbit'];
    const together = await embedder.embed(texts);
    const alone = await Promise.all(texts.map(async (t) => (await embedder.embed([t]))[0]!));
    expect(together.map(round)).toEqual(alone.map(round));
    // No [PAD] (axis 7) in any of them.
    expect(together.every((v) => v[7] === 0)).toBe(true);
  });

  it('cuts a text longer than the model limit into windows and weights them by length', async () => {
    // max_seq_length 4: two words per window between [CLS] and [SEP].
    const dir = await model({ maxTokens: 4 });
    const [long] = await (await createOnnxEmbedder({ modelDir: dir })).embed(['rocket rocket flour flour flour flour']);
    // Windows (e0 + 2e4)/4, (e0 + 2e5)/4 twice, each weighted by its 4 tokens: 3e0 + 2e4 + 4e5.
    const n = Math.sqrt(9 + 4 + 16);
    expect(round(long!)).toEqual(round([3 / n, 0, 0, 0, 2 / n, 4 / n, 0, 0]));
    const [first] = await (
      await createOnnxEmbedder({ modelDir: dir, maxWindows: 1 })
    ).embed(['rocket rocket flour flour flour flour']);
    const m = Math.sqrt(1 + 4);
    expect(round(first!)).toEqual(round([1 / m, 0, 0, 0, 2 / m, 0, 0, 0]));
  });

  it("adds the unit vector of the first line (the name) to the whole text's, by its weight", async () => {
    const dir = await model();
    const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
    // Whole: [CLS] rocket flour flour [SEP] = e0 + e4 + 2 e5; name: [CLS] rocket [SEP] = e0 + e4.
    const whole = unit([1, 0, 0, 0, 1, 2, 0, 0]);
    const name = unit([1, 0, 0, 0, 1, 0, 0, 0]);
    for (const weight of [0, 1, 3]) {
      const [v] = await (
        await createOnnxEmbedder({ modelDir: dir, titleWeight: weight })
      ).embed(['rocket\nflour flour']);
      expect(round(v!)).toEqual(round(unit(whole.map((x, j) => x + weight * name[j]!))));
    }
    // One line, or an empty first line: no name.
    const embedder = await createOnnxEmbedder({ modelDir: dir, titleWeight: 3 });
    const [oneLine, noName] = await embedder.embed(['rocket flour flour', '\nrocket flour flour']);
    expect(round(oneLine!)).toEqual(round(whole));
    expect(round(noName!)).toEqual(round(whole));
  });

  it('takes the [CLS] token when the pooling config asks for it', async () => {
    const embedder = await createOnnxEmbedder({ modelDir: await model({ pooling: 'cls' }) });
    const [a, b] = await embedder.embed(['rocket', 'flour oven']);
    expect(round(a!)).toEqual(round(axis(0)));
    expect(b).toEqual(a);
  });

  it('pads vectors with zeros to a larger index size, keeping cosine similarity', async () => {
    const dir = await model();
    const embedder = await createOnnxEmbedder({ modelDir: dir, padTo: 12 });
    expect(embedder.dimensions).toBe(12);
    expect(embedder.id).toMatch(/^onnx-[0-9a-f]{12}-8-title1-pad12$/);
    const [padded] = await embedder.embed(['rocket flour']);
    const [plain] = await (await createOnnxEmbedder({ modelDir: dir })).embed(['rocket flour']);
    expect(padded).toEqual([...plain!, 0, 0, 0, 0]);
  });

  it('answers concurrent calls in order, each with its own vectors', async () => {
    const embedder = await createOnnxEmbedder({ modelDir: await model() });
    const [a, b] = await Promise.all([embedder.embed(['rocket']), embedder.embed(['flour'])]);
    expect(round(a![0]!)).toEqual(round([r, 0, 0, 0, r, 0, 0, 0]));
    expect(round(b![0]!)).toEqual(round([r, 0, 0, 0, 0, r, 0, 0]));
  });

  it('refuses a directory without a model or tokenizer, or with a file that is not a model', async () => {
    const empty = await model();
    await rm(join(empty, 'model.onnx'));
    await expect(createOnnxEmbedder({ modelDir: empty })).rejects.toThrow(/cannot read model\.onnx/);
    const noTokenizer = await model();
    await rm(join(noTokenizer, 'tokenizer.json'));
    await expect(createOnnxEmbedder({ modelDir: noTokenizer })).rejects.toBeInstanceOf(EmbeddingModelError);
    const garbage = await model();
    await writeFile(join(garbage, 'model.onnx'), 'not a model');
    await expect(createOnnxEmbedder({ modelDir: garbage })).rejects.toThrow(/does not load/);
  });
});
