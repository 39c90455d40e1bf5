import {
  collectionsJson,
  contentTypeJson,
  languageJson,
  listCollections,
  listContentTypes,
  listLanguages,
  listSnippets,
  listSpaces,
  listTaxonomies,
  listWorkflows,
  snippetJson,
  spaceJson,
  taxonomyJson,
  workflowJson,
} from '@lectern/core';
import { modelInput, type McpContext } from './tool-kit.ts';

/**
 * The whole content model of the environment in Management API JSON: what an agent reads first
 * (get-initial-context, the `lectern://model` resource). Each list is read by its own operation,
 * so the caller's access is checked as on every route.
 */
export async function modelOverview(context: McpContext): Promise<Record<string, unknown>> {
  const input = modelInput(context);
  const { core } = context;
  return {
    environment_id: context.projectId,
    languages: (await listLanguages(core, input)).map(languageJson),
    content_types: (await listContentTypes(core, input)).map(contentTypeJson),
    snippets: (await listSnippets(core, input)).map(snippetJson),
    taxonomy_groups: (await listTaxonomies(core, input)).map(taxonomyJson),
    ...collectionsJson(await listCollections(core, input)),
    workflows: (await listWorkflows(core, input)).map(workflowJson),
    spaces: (await listSpaces(core, input)).map(spaceJson),
  };
}

/** How the tools fit together, for agents (get-initial-context). */
export const agentGuide = [
  'This is a Lectern environment; the tools speak the Kontent.ai Management API v2 and its JSON.',
  'Items are language-neutral containers of a content type; each has a variant per language holding element values.',
  'To add content: add-content-item-mapi, then upsert-language-variant-mapi with its element values; then ' +
    'change-variant-workflow-step-mapi or publish-variant-mapi. Published content is visible to query-delivery.',
  'Reference objects by { "codename": … } (or { "id": … }, { "external_id": … }).',
  'Rich text values are HTML. A component is <object type="application/kenticocloud" data-type="component" ' +
    'data-id="<uuid>"></object> in the value and { id: <uuid>, type: { codename }, elements: [...] } in `components`; ' +
    'a linked item is <object type="application/kenticocloud" data-type="item" data-codename="…"></object>.',
  'A refused call answers the API error body: error_code, message and validation_errors with JSON paths; fix and retry.',
  'Lists are paged: pass pagination.continuation_token back as continuation_token.',
].join('\n');
