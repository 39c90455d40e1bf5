export {
  validateProjectContent,
  type ElementIssue,
  type Named,
  type TypeIssue,
  type ValidationReport,
  type VariantIssue,
} from './validate.ts';
