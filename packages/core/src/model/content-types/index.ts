export {
  addContentType,
  deleteContentType,
  getContentType,
  listContentTypes,
  modifyContentType,
} from './content-types.ts';
export { addSnippet, deleteSnippet, getSnippet, listSnippets, modifySnippet } from './snippets.ts';
export {
  contentTypeJson,
  elementTypes,
  snippetJson,
  type ContentGroupBody,
  type ContentTypeBody,
  type ContentTypeRecord,
  type ElementBody,
  type ElementType,
  type SnippetBody,
  type SnippetRecord,
} from './model.ts';
export {
  contentTypeChangeImpact,
  impactMaxVariants,
  snippetChangeImpact,
  type ImpactChangeJson,
  type ImpactJson,
} from './impact.ts';
