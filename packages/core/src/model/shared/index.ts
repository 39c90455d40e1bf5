export { assertMayChange, assertModelAccess, writeModel, type ModelInput } from './access.ts';
export { checkCodename, codenameMax, generateCodename } from './codename.ts';
export { commitModel, createModel, modelEvent } from './events.ts';
export { deleteModel } from './delete-model.ts';
export { idFromExternalId } from './external-id.ts';
export {
  defaultPageSize,
  keysetAfter,
  keysetPage,
  mixedKeyAfter,
  mixedKeyToken,
  paginate,
  type Continuation,
  type KeysetList,
  type Page,
} from './paging.ts';
export { at, isRecord, Problems } from './problems.ts';
export { describeReference, readReference, recordKeyOf, type Reference } from './reference.ts';
export { characterCount, findUnstorableStrings, unstorableText, type UnstorableString } from './text.ts';
export { opNameOf, readOperations } from './patch-op.ts';
export {
  checkPattern,
  matchPattern,
  maxPatternLength,
  maxPatternTextLength,
  patternProblem,
  patternTimeoutMs,
  type PatternCheck,
  type PatternMatch,
} from './validation-pattern.ts';
export { runBounded, type BoundedResult } from './bounded-run.ts';
