import type { SearchEngine } from '@lectern/search-engine';
import {
  aliasOf,
  currentAliasOf,
  indexMappings,
  indexSettings,
  projectFilter,
  sharedIndexOf,
  sharedIndexPattern,
} from './mapping.ts';

/**
 * Where each project's documents live (see mapping.ts for the names and why projects share an
 * index). A project joins the current shared index on its first write, through its filtered
 * alias. A rebuild (also the way to a new mapping) writes the project into a new index while
 * readers keep reading the old one through the alias, then swaps the alias in one atomic alias
 * update, deletes the project's documents from the old index, and deletes the old index once no
 * project uses it (the new index becoming the current one).
 */
export interface ProjectIndices {
  alias(projectId: string): string;
  /** The index the writer writes to: the new index during a rebuild, else the project's alias. */
  writeTarget(projectId: string): Promise<string>;
  isRebuilding(projectId: string): boolean;
  startRebuild(projectId: string): Promise<void>;
  finishRebuild(projectId: string): Promise<void>;
  drop(projectId: string): Promise<void>;
}

export function createProjectIndices(options: {
  engine: SearchEngine;
  prefix: string;
  now: () => number;
}): ProjectIndices {
  const { engine } = options;
  const prefix = options.prefix.toLowerCase();
  const current = currentAliasOf(prefix);
  const ensured = new Set<string>();
  const rebuilding = new Map<string, string>();
  /** The index the rebuilds of this process write into (one for a whole `lectern index rebuild`). */
  let rebuildIndex: string | null = null;
  const alias = (projectId: string) => aliasOf(prefix, projectId.toLowerCase());
  const body = { settings: indexSettings, mappings: indexMappings };

  async function currentIndex(): Promise<string> {
    const [found] = await engine.aliasTargets(current);
    if (found !== undefined) return found;
    const first = sharedIndexOf(prefix, 0);
    const isCreated = await engine.createIndex(first, { ...body, aliases: { [current]: {} } });
    if (!isCreated && (await engine.aliasTargets(current)).length === 0) await engine.pointAlias(current, first);
    return first;
  }

  async function ensure(projectId: string): Promise<void> {
    if (ensured.has(projectId)) return;
    const name = alias(projectId);
    if ((await engine.aliasTargets(name)).length === 0)
      await engine.pointAlias(name, await currentIndex(), projectFilter(projectId));
    ensured.add(projectId);
  }

  /** Whether any project alias is left on an index. */
  const isUsed = async (index: string, except: string) =>
    (await engine.aliasesOf(index)).some((a) => a !== current && a !== except);

  return {
    alias,
    async writeTarget(projectId) {
      const target = rebuilding.get(projectId);
      if (target !== undefined) return target;
      await ensure(projectId);
      return alias(projectId);
    },
    isRebuilding: (projectId) => rebuilding.has(projectId),
    async startRebuild(projectId) {
      // Projects rebuilt by one process share the new index, unless the project already lives
      // there (a second rebuild): writing it into the index its readers read would show them the
      // rebuild half done.
      const live = await engine.aliasTargets(alias(projectId));
      if (rebuildIndex === null || live.includes(rebuildIndex)) {
        // Indices no alias points to: left by rebuilds that never finished.
        const all = await engine.indices(sharedIndexPattern(prefix));
        const unused = [];
        for (const index of all) if ((await engine.aliasesOf(index)).length === 0) unused.push(index);
        await engine.deleteIndices(unused);
        rebuildIndex = sharedIndexOf(prefix, options.now());
        await engine.createIndex(rebuildIndex, body);
      }
      rebuilding.set(projectId, rebuildIndex);
    },
    async finishRebuild(projectId) {
      const target = rebuilding.get(projectId);
      if (target === undefined) return;
      const name = alias(projectId);
      const old = (await engine.aliasTargets(name)).filter((i) => i !== target);
      await engine.pointAlias(name, target, projectFilter(projectId));
      for (const index of old) {
        await engine.deleteByQuery(index, projectFilter(projectId));
        if (await isUsed(index, name)) continue;
        if ((await engine.aliasTargets(current)).includes(index)) await engine.pointAlias(current, target);
        await engine.deleteIndices([index]);
      }
      if ((await engine.aliasTargets(current)).length === 0) await engine.pointAlias(current, target);
      rebuilding.delete(projectId);
      ensured.add(projectId);
    },
    async drop(projectId) {
      const name = alias(projectId);
      for (const index of await engine.aliasTargets(name)) {
        await engine.deleteByQuery(index, projectFilter(projectId));
        if (await isUsed(index, name)) await engine.removeAlias(name, index);
        else await engine.deleteIndices([index]);
      }
      ensured.delete(projectId);
      rebuilding.delete(projectId);
    },
  };
}
