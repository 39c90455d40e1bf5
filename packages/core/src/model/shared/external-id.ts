import { v5 as uuidv5 } from 'uuid';
import type { ModelKind } from '../../domain/model-record.ts';

/**
 * The id an object gets when created with an external id, and the id a reference by that external
 * id resolves to before the object exists (DESIGN.md: UUIDv5 of project, kind and external id).
 * Element, option, term and group ids use their own kind names (`element`, `option`, …).
 */
export function idFromExternalId(options: { projectId: string; kind: ModelKind | string; externalId: string }): string {
  return uuidv5(`${options.kind}:${options.externalId}`, options.projectId);
}
