import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@lectern/config';
import { modelDirOf, recsEmbeddingSettings } from './embedding-settings.ts';

const load = (env: Record<string, string>) => loadConfig({ settings: recsEmbeddingSettings, env });

describe('the embedding settings', () => {
  it('put the default model directory in the models cache, which LECTERN_MODELS_CACHE moves', () => {
    expect(modelDirOf(load({}))).toBe(join(homedir(), '.cache', 'lectern-models', 'all-MiniLM-L6-v2-int8'));
    expect(modelDirOf(load({ LECTERN_MODELS_CACHE: '/srv/models' }))).toBe('/srv/models/all-MiniLM-L6-v2-int8');
  });

  it('take LECTERN_RECS_MODEL_DIR over the cache', () => {
    const config = load({ LECTERN_MODELS_CACHE: '/srv/models', LECTERN_RECS_MODEL_DIR: '/opt/model' });
    expect(modelDirOf(config)).toBe('/opt/model');
  });
});
