import type { UnitOfWork } from '../ports/store.ts';
import type { LanguageBody } from './languages.ts';
import type { CollectionBody } from './collections/collections.ts';
import type { WorkflowBody } from './workflows/workflow-body.ts';
import { systemStepIds, zeroId } from './system-ids.ts';

export { systemStepIds, zeroId } from './system-ids.ts';

/**
 * Bodies are stored in their wire form (snake_case), minus the identifying fields kept in columns.
 *
 * Creates what every project has from the start: the default language, the default collection and
 * the default workflow. Called in the project's creating transaction.
 */
export async function seedDefaultModel(tx: UnitOfWork, options: { projectId: string; now: Date }): Promise<void> {
  const base = { projectId: options.projectId, id: zeroId, externalId: null, lastModified: options.now };
  const language: LanguageBody = {
    name: 'Default project language',
    is_active: true,
    fallback_language: { id: zeroId },
  };
  await tx.model.insert({ ...base, kind: 'language', codename: 'default', body: language });
  const collection: CollectionBody = { name: 'Default', position: 0 };
  await tx.model.insert({ ...base, kind: 'collection', codename: 'default', body: collection });
  const workflow: WorkflowBody = {
    name: 'Default',
    scopes: [],
    steps: [
      {
        id: systemStepIds.draft,
        name: 'Draft',
        codename: 'draft',
        color: 'sky-blue',
        transitions_to: [{ step: { id: systemStepIds.published } }, { step: { id: systemStepIds.archived } }],
        role_ids: [],
      },
    ],
    published_step: { unpublish_role_ids: [], create_new_version_role_ids: [] },
    archived_step: { role_ids: [] },
  };
  await tx.model.insert({ ...base, kind: 'workflow', codename: 'default', body: workflow });
}
