import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ConfigOf, Setting } from '@lectern/config';
import { createHashedEmbedder, type EmbeddingProvider } from '@lectern/core';

/** The folder of all-MiniLM-L6-v2 (int8 ONNX) in a models cache, as `scripts/lib/models.sh` installs it. */
export function defaultModelDir(modelsCache: string): string {
  return join(modelsCache, 'all-MiniLM-L6-v2-int8');
}

/** The dimensions of the HNSW index of migration 0011: model vectors are zero-padded to it. */
const indexedDimensions = 512;

/**
 * Which embedding provider makes the recommendation index's vectors (issue 16). Every process that
 * embeds must use the same one: the indexer (items) and the Recommendations service (search
 * queries) in the cluster, `lectern start` embedded. Services that embed add these rows.
 */
export const recsEmbeddingSettings = {
  recsEmbedding: {
    env: 'LECTERN_RECS_EMBEDDING',
    schema: z.enum(['hashed', 'onnx']),
    default: 'hashed',
    doc:
      'Embedding provider of recommendations: hashed (TF-IDF word and pair features, no model) or onnx (a local ' +
      'sentence-embedding model in LECTERN_RECS_MODEL_DIR, run on onnxruntime-web). Same value in every process.',
  },
  recsModelDir: {
    env: 'LECTERN_RECS_MODEL_DIR',
    schema: z.string().min(1).optional(),
    doc:
      'Directory with model.onnx and tokenizer.json, for LECTERN_RECS_EMBEDDING=onnx (default: all-MiniLM-L6-v2-int8 in ' +
      'LECTERN_MODELS_CACHE, where scripts/lib/models.sh installs it).',
  },
  recsModelsCache: {
    env: 'LECTERN_MODELS_CACHE',
    schema: z.string().min(1),
    default: join(homedir(), '.cache', 'lectern-models'),
    doc: 'Where scripts/lib/models.sh installs sentence-embedding models; holds the default LECTERN_RECS_MODEL_DIR.',
  },
} satisfies Record<string, Setting<unknown>>;

export type RecsEmbeddingConfig = ConfigOf<typeof recsEmbeddingSettings>;

/** The model directory the settings name: LECTERN_RECS_MODEL_DIR, or the default one in the models cache. */
export function modelDirOf(config: RecsEmbeddingConfig): string {
  return config.recsModelDir ?? defaultModelDir(config.recsModelsCache);
}

/** The configured provider; an unusable model directory rejects with an `EmbeddingModelError`. */
export async function openEmbedder(config: RecsEmbeddingConfig): Promise<EmbeddingProvider> {
  if (config.recsEmbedding === 'hashed') return createHashedEmbedder();
  // onnxruntime-web and the tokenizer load only for the provider that needs them.
  const { createOnnxEmbedder } = await import('./onnx-embedder.ts');
  return createOnnxEmbedder({ modelDir: modelDirOf(config), padTo: indexedDimensions });
}
