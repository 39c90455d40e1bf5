/*
 * Ids every project shares. A module of its own so the model files that need them do not import
 * defaults.ts, which imports their body types to seed a project.
 */

/** The all-zero id of the default language, collection and workflow (reference §1.5). */
export const zeroId = '00000000-0000-0000-0000-000000000000';

/** Ids of the system workflow steps, the same in every project (reference §1.5). */
export const systemStepIds = {
  draft: 'eee6db3b-545a-4785-8e86-e3772c8756f9',
  published: 'c199950d-99f0-4983-b711-6c4c91624b22',
  scheduled: '9d2b0228-4d0d-4c23-8b49-01a698857709',
  archived: '7a535a69-ad34-47f8-806a-def1fdf4d391',
} as const;
