import type { ModelRecord } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { assertModelAccess, commitModel, idFromExternalId, writeModel, type ModelInput } from '../shared/index.ts';

/*
 * Singleton environment settings (preview configuration, live preview, Web Spotlight): one model
 * document of kind `setting` each, its codename the setting's name and its id derived from it, so
 * every process finds it without a lookup table. A setting never written reads as its default.
 */

export type SettingName =
  'preview_configuration' | 'live_preview' | 'web_spotlight' | 'cloning_state' | 'environment_group';

export function settingId(projectId: string, name: SettingName): string {
  return idFromExternalId({ projectId, kind: 'setting', externalId: name });
}

async function findSetting<B extends object>(
  tx: UnitOfWork,
  projectId: string,
  name: SettingName,
  isForUpdate = false,
): Promise<ModelRecord<B> | null> {
  return tx.model.find<B>(projectId, 'setting', { id: settingId(projectId, name) }, { isForUpdate });
}

/**
 * The stored value of a setting, or `fallback` when it was never written; `view` may adjust it in
 * the same transaction (e.g. drop references to objects deleted since).
 */
export async function readSetting<B extends object>(
  deps: CoreDeps,
  input: ModelInput,
  options: { name: SettingName; fallback: B; view?: (tx: UnitOfWork, body: B) => Promise<B> },
): Promise<B> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    const found = await findSetting<B>(tx, input.projectId, options.name);
    const body = found ? found.body : options.fallback;
    return options.view ? options.view(tx, body) : body;
  });
}

/**
 * Replaces a setting with what `build` makes of the current value (or the fallback), in one
 * transaction holding the setting kind's lock; the change event is written with it.
 */
export async function writeSetting<B extends object>(
  deps: CoreDeps,
  input: ModelInput,
  options: { name: SettingName; fallback: B; build: (tx: UnitOfWork, current: B) => Promise<B> },
): Promise<B> {
  return writeModel(deps, input, 'setting', async (tx) => {
    const current = await findSetting<B>(tx, input.projectId, options.name, true);
    const body = await options.build(tx, current ? current.body : options.fallback);
    const record: ModelRecord<B> = {
      projectId: input.projectId,
      kind: 'setting',
      id: settingId(input.projectId, options.name),
      codename: options.name,
      externalId: null,
      body,
      lastModified: deps.clock.now(),
    };
    await commitModel(tx, current ? 'update' : 'create', record);
    return body;
  });
}
