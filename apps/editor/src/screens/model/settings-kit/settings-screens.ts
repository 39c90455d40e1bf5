/*
 * The model settings screens, loaded together on first use (one chunk): Content model →
 * Taxonomies and Environment settings → Collections, Spaces, Localization, Workflow, Preview URLs.
 */
export { TaxonomiesScreen } from '../taxonomies/taxonomies-screen.tsx';
export { CollectionsScreen } from '../collections/collections-screen.tsx';
export { SpacesScreen } from '../spaces/spaces-screen.tsx';
export { LanguagesScreen } from '../languages/languages-screen.tsx';
export { WorkflowsScreen } from '../workflows/workflows-screen.tsx';
export { PreviewUrlsScreen } from '../preview-urls/preview-urls-screen.tsx';
