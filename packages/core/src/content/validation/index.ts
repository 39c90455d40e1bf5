export {
  validateProjectContent,
  type ElementIssue,
  type Named,
  type TypeIssue,
  type ValidationReport,
  type VariantIssue,
} from './validate.ts';
export {
  getValidationTask,
  listValidationIssues,
  startValidation,
  validationTaskHandler,
  validationTaskJson,
  type TaskIssue,
  type ValidationTaskRecord,
} from './tasks.ts';
