import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A model directory that cannot be used: a file missing or unreadable, or a config malformed. */
export class EmbeddingModelError extends Error {
  override readonly name = 'EmbeddingModelError';
}

/** How token vectors become one sentence vector (sentence-transformers' `1_Pooling/config.json`). */
export type Pooling = 'mean' | 'cls';

/** What a sentence-transformers model directory exported to ONNX holds. */
export interface ModelFiles {
  readonly model: Uint8Array;
  /** sha256 of `model.onnx`, hex. */
  readonly modelSha256: string;
  /** `tokenizer.json` (Hugging Face tokenizers format), parsed. */
  readonly tokenizer: object;
  /** `tokenizer_config.json`, parsed ({} when absent). */
  readonly tokenizerConfig: object;
  readonly pooling: Pooling;
  /** Tokens per text, special tokens included; longer texts are cut (the model's own limit). */
  readonly maxTokens: number;
}

async function readJson(dir: string, name: string, options: { isOptional: boolean }): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(join(dir, name), 'utf8');
  } catch (error) {
    if (options.isOptional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new EmbeddingModelError(`cannot read ${name} in ${dir}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EmbeddingModelError(`${name} in ${dir} is not JSON: ${(error as Error).message}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Reads a model directory: `model.onnx` and `tokenizer.json` (required), `tokenizer_config.json`,
 * `1_Pooling/config.json` (mean pooling unless it asks for the CLS token) and
 * `sentence_bert_config.json` (`max_seq_length`, else `model_max_length`, else 256) when present.
 */
export async function readModelFiles(dir: string): Promise<ModelFiles> {
  let model: Uint8Array;
  try {
    model = await readFile(join(dir, 'model.onnx'));
  } catch (error) {
    throw new EmbeddingModelError(`cannot read model.onnx in ${dir}: ${(error as Error).message}`);
  }
  const tokenizer = await readJson(dir, 'tokenizer.json', { isOptional: false });
  if (!isObject(tokenizer) || !isObject(tokenizer['model']))
    throw new EmbeddingModelError(`tokenizer.json in ${dir} has no tokenizer model`);
  const tokenizerConfig = (await readJson(dir, 'tokenizer_config.json', { isOptional: true })) ?? {};
  if (!isObject(tokenizerConfig)) throw new EmbeddingModelError(`tokenizer_config.json in ${dir} is not an object`);
  const poolingConfig = await readJson(dir, join('1_Pooling', 'config.json'), { isOptional: true });
  const pooling: Pooling = isObject(poolingConfig) && poolingConfig['pooling_mode_cls_token'] === true ? 'cls' : 'mean';
  const sbert = await readJson(dir, 'sentence_bert_config.json', { isOptional: true });
  const limit = [isObject(sbert) ? sbert['max_seq_length'] : undefined, tokenizerConfig['model_max_length']].find(
    (n): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 2 && n <= 8192,
  );
  return {
    model,
    modelSha256: createHash('sha256').update(model).digest('hex'),
    tokenizer,
    tokenizerConfig,
    pooling,
    maxTokens: limit ?? 256,
  };
}
