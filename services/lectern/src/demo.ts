import { seedDemoContent } from './demo-content.ts';
import { seedDemoModel } from './demo-model.ts';
import {
  createApiKey,
  createProject,
  listProjects,
  operator,
  type CoreDeps,
  type IssuedKey,
  type Project,
} from '@lectern/core';

export const demoUserEmail = 'demo@lectern.local';

export interface DemoProject {
  readonly project: Project;
  /** Shown once, at the first start. */
  readonly keys: readonly IssuedKey[];
}

/**
 * On the first start (no project yet), creates the demo project with its small content model and
 * a few published articles, a
 * management key for the demo user, primary delivery and preview keys and a Smart Recommendations key. Returns null when projects already exist.
 */
export async function seedDemoProject(core: CoreDeps): Promise<DemoProject | null> {
  if ((await listProjects(core, { actor: operator })).length > 0) return null;
  const project = await createProject(core, { actor: operator, name: 'Lectern demo' });
  await seedDemoModel(core, project.id);
  await seedDemoContent(core, project.id);
  const keys = [
    await createApiKey(core, { actor: operator, projectId: project.id, kind: 'management', userEmail: demoUserEmail }),
    await createApiKey(core, { actor: operator, projectId: project.id, kind: 'preview_primary' }),
    await createApiKey(core, { actor: operator, projectId: project.id, kind: 'delivery_primary' }),
    await createApiKey(core, { actor: operator, projectId: project.id, kind: 'recommendations' }),
  ];
  return { project, keys };
}
