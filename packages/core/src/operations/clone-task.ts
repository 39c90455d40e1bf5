import type { ModelRecord } from '../domain/model-record.ts';
import type { PageKey, UnitOfWork } from '../ports/store.ts';
import { modelEvent } from '../model/shared/index.ts';
import { settingId } from '../model/settings/setting-store.ts';
import type { TaskHandler, TaskStep } from '../tasks/task-runner.ts';

/*
 * The copy of a clone-environment request, as a background task of the clone (its input: the
 * source environment and whether content is copied). It runs in steps of one transaction each,
 * each committed with where the next one starts, so a runner that stops loses at most one step
 * and the next runner continues: the model and settings; items with their variants, a page at
 * a time; assets with their files, a page at a time; then renditions and the change events that
 * make the indexer render the clone. Progress counts items and assets (+1 for the model, +1 for
 * the end).
 */

interface CloneState {
  phase: 'model' | 'items' | 'assets' | 'finish' | 'done';
  after: PageKey | null;
  done: number;
  total: number;
}

const itemsPerStep = 200;
const assetsPerStep = 500;
const modelKinds = [
  'language',
  'collection',
  'taxonomy',
  'snippet',
  'content_type',
  'workflow',
  'space',
  'custom_app',
  'setting',
] as const;

function isOwnSetting(r: ModelRecord): boolean {
  return r.codename === 'cloning_state' || r.codename === 'environment_group';
}

async function countAssets(tx: UnitOfWork, projectId: string): Promise<number> {
  let count = 0;
  for (let after: PageKey | null = null; ;) {
    const page = await tx.assets.page(projectId, { after, limit: 1_000 });
    count += page.rows.length;
    if (page.next === null) return count;
    after = page.next;
  }
}

async function copyModel(tx: UnitOfWork, from: string, to: string, isCopyingContent: boolean): Promise<number> {
  for (const kind of modelKinds)
    for (const r of await tx.model.list(from, kind)) {
      if (kind === 'setting' && isOwnSetting(r)) continue;
      await tx.model.insert({
        ...r,
        projectId: to,
        id: kind === 'setting' ? settingId(to, r.codename as 'web_spotlight') : r.id,
      });
    }
  if (!isCopyingContent) return 0;
  const folders = await tx.assetFolders.get(from);
  if (folders) await tx.assetFolders.save(to, folders);
  return (await tx.items.list(from)).length + (await countAssets(tx, from));
}

async function step(
  tx: UnitOfWork,
  s: CloneState,
  input: { from: string; to: string; isCopyingContent: boolean; now: () => Date },
): Promise<CloneState> {
  const { from, to } = input;
  if (s.phase === 'model') {
    const count = await copyModel(tx, from, to, input.isCopyingContent);
    return { phase: input.isCopyingContent ? 'items' : 'finish', after: null, done: 1, total: count + 2 };
  }
  if (s.phase === 'items') {
    const page = await tx.items.page(from, { after: s.after, limit: itemsPerStep });
    for (const item of page.rows) await tx.items.insert({ ...item, projectId: to });
    const variants = await tx.variants.listByItems(
      from,
      page.rows.map((i) => i.id),
    );
    for (const v of variants) await tx.variants.save({ ...v, projectId: to });
    const done = s.done + page.rows.length;
    return page.next === null ? { ...s, phase: 'assets', after: null, done } : { ...s, after: page.next, done };
  }
  if (s.phase === 'assets') {
    const page = await tx.assets.page(from, { after: s.after, limit: assetsPerStep });
    const files = await tx.binaryFiles.getMany(
      from,
      page.rows.map((a) => a.fileId),
    );
    for (const f of files) await tx.binaryFiles.insert({ ...f, projectId: to });
    for (const a of page.rows) await tx.assets.insert({ ...a, projectId: to });
    const done = s.done + page.rows.length;
    return page.next === null ? { ...s, phase: 'finish', after: null, done } : { ...s, after: page.next, done };
  }
  if (input.isCopyingContent)
    for (const r of await tx.model.list(from, 'rendition')) await tx.model.insert({ ...r, projectId: to });
  // Model events make the indexer render the whole clone from the copied state.
  const events = [];
  for (const kind of modelKinds)
    for (const r of await tx.model.list(to, kind))
      if (!(kind === 'setting' && isOwnSetting(r))) events.push(modelEvent('create', r));
  await tx.outbox.append(to, events, input.now());
  return { ...s, phase: 'done', done: s.total };
}

function stateOf(raw: Readonly<Record<string, unknown>>): CloneState {
  return raw['phase'] === undefined
    ? { phase: 'model', after: null, done: 0, total: 0 }
    : (raw as unknown as CloneState);
}

export const cloneTaskHandler: TaskHandler = {
  async run(deps, ctx) {
    const input = {
      now: () => deps.clock.now(),
      from: String(ctx.task.input['sourceId']),
      to: ctx.task.projectId,
      isCopyingContent: ctx.task.input['isCopyingContent'] !== false,
    };
    let state = stateOf(ctx.task.state);
    while (state.phase !== 'done') {
      const current = state;
      const next: TaskStep = await ctx.step(async (tx) => {
        const s = await step(tx, current, input);
        return { state: { ...s }, done: s.done, total: s.total };
      });
      state = stateOf(next.state);
    }
  },
  // The task's status is the cloning state (`getCloningState` reads it).
  async fail() {},
};
