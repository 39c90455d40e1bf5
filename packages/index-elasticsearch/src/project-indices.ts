import type { SearchEngine } from './engine-client.ts';
import { aliasOf, firstIndexOf, indexMappings, indexSettings, rebuildIndexOf } from './mapping.ts';

/**
 * The indices of each project: readers and writers use the project's alias; the first index is
 * created on the first write; a rebuild (or a mapping change, which needs one) writes into a new
 * index while readers keep reading the old one through the alias, then swaps the alias in one
 * atomic alias update and deletes the old index.
 */
export interface ProjectIndices {
  alias(projectId: string): string;
  /** The index the writer writes to: the new index during a rebuild, else the alias (created if missing). */
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
  const ensured = new Set<string>();
  const rebuilding = new Map<string, string>();
  const alias = (projectId: string) => aliasOf(prefix, projectId.toLowerCase());
  const body = { settings: indexSettings, mappings: indexMappings };

  async function ensure(projectId: string): Promise<void> {
    if (ensured.has(projectId)) return;
    const name = alias(projectId);
    if ((await engine.aliasTargets(name)).length === 0) {
      const first = firstIndexOf(prefix, projectId.toLowerCase());
      const isCreated = await engine.createIndex(first, { ...body, aliases: { [name]: {} } });
      if (!isCreated && (await engine.aliasTargets(name)).length === 0) await engine.pointAlias(name, first);
    }
    ensured.add(projectId);
  }

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
      const name = alias(projectId);
      const current = new Set(await engine.aliasTargets(name));
      // Indices of rebuilds that never finished.
      const stale = (await engine.indices(`${name}-*`)).filter((i) => !current.has(i));
      await engine.deleteIndices(stale);
      const target = rebuildIndexOf(prefix, projectId.toLowerCase(), options.now());
      await engine.createIndex(target, body);
      rebuilding.set(projectId, target);
    },
    async finishRebuild(projectId) {
      const target = rebuilding.get(projectId);
      if (target === undefined) return;
      const name = alias(projectId);
      const old = await engine.aliasTargets(name);
      await engine.pointAlias(name, target);
      await engine.deleteIndices(old.filter((i) => i !== target));
      rebuilding.delete(projectId);
      ensured.add(projectId);
    },
    async drop(projectId) {
      const name = alias(projectId);
      await engine.deleteIndices(await engine.indices(`${name}-*`));
      ensured.delete(projectId);
      rebuilding.delete(projectId);
    },
  };
}
