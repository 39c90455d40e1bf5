import type { UnitOfWork } from '../ports/store.ts';
import type { LanguageBody } from './languages.ts';
import type { CollectionBody } from './collections/collections.ts';
import type { WorkflowBody } from './workflows/workflow-body.ts';

/** The all-zero id of the default language, collection and workflow (reference §1.5). */
export const zeroId = '00000000-0000-0000-0000-000000000000';

/** Ids of the system workflow steps, the same in every project (reference §1.5). */
export const systemStepIds = {
  draft: 'eee6db3b-545a-4785-8e86-e3772c8756f9',
  published: 'c199950d-99f0-4983-b711-6c4c91624b22',
  scheduled: '9d2b0228-4d0d-4c23-8b49-01a698857709',
  archived: '7a535a69-ad34-47f8-806a-def1fdf4d391',
} as const;

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
