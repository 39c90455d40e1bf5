import { systemStepIds } from '../../model/defaults.ts';
import { elementsJsonV1, elementsJsonV2 } from './element-json.ts';
import type { ContentLookups } from './lookups.ts';
import type { VariantRecord } from './variant-record.ts';

/**
 * The Management API form of a variant (reference §2.3; v1: §7.1). `isPublished` renders the
 * published version (GET …/published) instead of the latest one.
 */
export async function variantJson(
  v: VariantRecord,
  options: { lookups: ContentLookups; version: 'v1' | 'v2'; isPublished?: boolean },
): Promise<Record<string, unknown>> {
  const type = await options.lookups.type({ id: v.typeId });
  const defs = type?.elements ?? [];
  const published = options.isPublished ? v.published : null;
  const elements = published?.elements ?? v.elements;
  const lastModified = published ? published.lastModified : v.lastModified.toISOString();
  if (options.version === 'v1')
    return {
      elements: elementsJsonV1(defs, elements),
      item: { id: v.itemId },
      language: { id: v.languageId },
      last_modified: lastModified,
    };
  const workflowId = published?.workflowId ?? v.workflowId;
  const stepId = published ? systemStepIds.published : v.stepId;
  return {
    elements: await elementsJsonV2(defs, elements, options.lookups),
    workflow: { workflow_identifier: { id: workflowId }, step_identifier: { id: stepId } },
    workflow_step: { id: stepId },
    item: { id: v.itemId },
    language: { id: v.languageId },
    last_modified: lastModified,
    schedule: { ...v.schedule },
    due_date: { value: v.dueDate },
    contributors: v.contributors.map((c) => ({ id: c.id })),
    note: v.note,
  };
}
