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
