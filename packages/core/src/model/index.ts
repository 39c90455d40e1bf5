export { seedDefaultModel, systemStepIds, zeroId } from './defaults.ts';
export {
  addLanguage,
  getLanguage,
  languageJson,
  listLanguages,
  modifyLanguage,
  type LanguageBody,
  type LanguageRecord,
} from './languages.ts';
export * from './shared/index.ts';
export * from './content-types/index.ts';
export * from './taxonomies/index.ts';
export * from './collections/index.ts';
export * from './workflows/index.ts';
export * from './spaces/index.ts';
export * from './settings/index.ts';
