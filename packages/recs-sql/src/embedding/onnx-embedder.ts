import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-web';
import type { EmbeddingProvider } from '@lectern/core';
import { EmbeddingModelError, readModelFiles, type ModelFiles } from './model-files.ts';

export interface OnnxEmbedderOptions {
  /** A directory with `model.onnx`, `tokenizer.json` and, optionally, the sentence-transformers configs. */
  readonly modelDir: string;
  /**
   * Vectors are zero-padded to this many numbers when the model gives fewer (cosine similarity is
   * unchanged), so they fit a vector index built for that size. Default: the model's own size.
   */
  readonly padTo?: number;
  /** Texts longer than the model's token limit are cut into up to this many windows, averaged (default 8). */
  readonly maxWindows?: number;
  /** Windows per model run (default 16). */
  readonly batchSize?: number;
  /**
   * Weight of the first line of a text of several lines (the item's name, see `embeddedText`),
   * embedded on its own and added to the whole text's unit vector (default 1; 0: not separately).
   */
  readonly titleWeight?: number;
  /** WebAssembly threads (default 1; set once per process, by the first provider created). */
  readonly threads?: number;
}

/** One window of a text: token ids with [CLS] … [SEP] around them. */
interface Window {
  readonly text: number;
  readonly ids: readonly number[];
}

const outputPreference = ['last_hidden_state', 'token_embeddings', 'sentence_embedding'];

/** Splits a text's tokens into windows of at most `maxTokens`, each with the text's first and last special token. */
function windowsOf(tokenizer: Tokenizer, text: string, index: number, files: ModelFiles, maxWindows: number): Window[] {
  const ids = tokenizer.encode(text).ids;
  if (ids.length <= files.maxTokens) return [{ text: index, ids }];
  const first = ids[0]!;
  const last = ids.at(-1)!;
  const inner = ids.slice(1, -1);
  const size = files.maxTokens - 2;
  const windows: Window[] = [];
  for (let start = 0; start < inner.length && windows.length < maxWindows; start += size)
    windows.push({ text: index, ids: [first, ...inner.slice(start, start + size), last] });
  return windows;
}

function int64(values: readonly number[], dims: readonly number[]): ort.Tensor {
  return new ort.Tensor(
    'int64',
    BigInt64Array.from(values, (v) => BigInt(v)),
    dims,
  );
}

/**
 * The embedding provider that runs a local ONNX sentence-embedding model (a sentence-transformers
 * model exported to ONNX, e.g. all-MiniLM-L6-v2) on onnxruntime-web's WebAssembly backend, with
 * the model's own Hugging Face tokenizer (`@huggingface/tokenizers`, pure JavaScript). Nothing is
 * downloaded: the files come from `modelDir`. A text is tokenized, cut into windows of the model's
 * token limit (a long article is the length-weighted mean of its windows), run through the model,
 * pooled (mean over the attention mask, or the CLS token, per the model's pooling config) and
 * scaled to unit length; the unit vector of its first line (the name), times `titleWeight`, is
 * added and the sum scaled again. Runs are serialized (one WebAssembly instance). Deterministic.
 */
export async function createOnnxEmbedder(options: OnnxEmbedderOptions): Promise<EmbeddingProvider> {
  const files = await readModelFiles(options.modelDir);
  const maxWindows = options.maxWindows ?? 8;
  const batchSize = options.batchSize ?? 16;
  const titleWeight = options.titleWeight ?? 1;
  ort.env.wasm.numThreads = options.threads ?? 1;
  ort.env.logLevel = 'error';
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(files.tokenizer, files.tokenizerConfig);
  } catch (error) {
    throw new EmbeddingModelError(`tokenizer.json in ${options.modelDir}: ${(error as Error).message}`);
  }
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(files.model, { graphOptimizationLevel: 'all' });
  } catch (error) {
    throw new EmbeddingModelError(`model.onnx in ${options.modelDir} does not load: ${(error as Error).message}`);
  }
  const output = outputPreference.find((n) => session.outputNames.includes(n)) ?? session.outputNames[0];
  if (output === undefined || !session.inputNames.includes('input_ids'))
    throw new EmbeddingModelError(`model.onnx in ${options.modelDir} has no input_ids input or no output`);

  /** Pooled, unnormalized vectors of windows of equal treatment (padded to the longest). */
  const runBatch = async (batch: readonly Window[]): Promise<Float32Array[]> => {
    const width = Math.max(...batch.map((w) => w.ids.length));
    const ids: number[] = [];
    const mask: number[] = [];
    for (const w of batch) {
      ids.push(...w.ids, ...new Array<number>(width - w.ids.length).fill(0));
      mask.push(...w.ids.map(() => 1), ...new Array<number>(width - w.ids.length).fill(0));
    }
    const shape = [batch.length, width];
    const feeds: Record<string, ort.Tensor> = { input_ids: int64(ids, shape) };
    if (session.inputNames.includes('attention_mask')) feeds['attention_mask'] = int64(mask, shape);
    if (session.inputNames.includes('token_type_ids'))
      feeds['token_type_ids'] = int64(new Array<number>(ids.length).fill(0), shape);
    const result = (await session.run(feeds))[output]!;
    const data = result.data as Float32Array;
    const dims = result.dims;
    const size = dims.at(-1)!;
    return batch.map((w, b) => {
      if (dims.length === 2) return data.slice(b * size, (b + 1) * size);
      const pooled = new Float32Array(size);
      const tokens = files.pooling === 'cls' ? 1 : w.ids.length;
      for (let t = 0; t < tokens; t++) {
        const at = (b * width + t) * size;
        for (let j = 0; j < size; j++) pooled[j]! += data[at + j]! / tokens;
      }
      return pooled;
    });
  };

  const embedAll = async (texts: readonly string[]): Promise<Float64Array[]> => {
    const windows = texts.flatMap((t, i) => windowsOf(tokenizer, t, i, files, maxWindows));
    // Similar lengths together: less padding.
    const order = windows.map((_, i) => i).sort((a, b) => windows[a]!.ids.length - windows[b]!.ids.length);
    const sums: (Float64Array | undefined)[] = texts.map(() => undefined);
    for (let start = 0; start < order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize).map((i) => windows[i]!);
      const pooled = await runBatch(batch);
      for (const [k, w] of batch.entries()) {
        const v = pooled[k]!;
        const sum = (sums[w.text] ??= new Float64Array(v.length));
        for (let j = 0; j < v.length; j++) sum[j]! += v[j]! * w.ids.length;
      }
    }
    return sums.map((s) => s ?? new Float64Array(0));
  };

  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  const [probe] = await serialized(() => embedAll(['dimension probe']));
  const modelDimensions = probe?.length ?? 0;
  if (modelDimensions === 0) throw new EmbeddingModelError(`model.onnx in ${options.modelDir} gave an empty vector`);
  const dimensions = Math.max(modelDimensions, options.padTo ?? 0);
  const unit = (sum: Float64Array): Float64Array => {
    const norm = Math.hypot(...sum);
    return norm > 0 ? sum.map((x) => x / norm) : sum;
  };
  const finish = (sum: Float64Array): number[] => {
    const out = new Array<number>(dimensions).fill(0);
    // Stored as float4 (real[] or pgvector): values too small for it would fail there ("underflow").
    for (const [j, x] of unit(sum).entries()) out[j] = Math.abs(x) < 1e-30 ? 0 : x;
    return out;
  };
  /** Each text's vector, plus its name's (first line) for texts of several lines. */
  const embedTexts = async (texts: readonly string[]): Promise<number[][]> => {
    const titleOf = (t: string) => (t.includes('\n') ? t.slice(0, t.indexOf('\n')).trim() : '');
    const titled = titleWeight > 0 ? texts.flatMap((t, i) => (titleOf(t) === '' ? [] : [i])) : [];
    const titles = titled.map((i) => titleOf(texts[i]!));
    const sums = await embedAll([...texts, ...titles]);
    const out = sums.slice(0, texts.length).map(unit);
    for (const [k, i] of titled.entries()) {
      const title = unit(sums[texts.length + k]!);
      out[i] = out[i]!.map((x, j) => x + titleWeight * (title[j] ?? 0));
    }
    return out.map(finish);
  };
  return {
    id: [
      `onnx-${files.modelSha256.slice(0, 12)}-${modelDimensions}`,
      titleWeight > 0 ? `-title${titleWeight}` : '',
      dimensions > modelDimensions ? `-pad${dimensions}` : '',
    ].join(''),
    dimensions,
    embed: (texts) => serialized(() => embedTexts(texts)),
  };
}
