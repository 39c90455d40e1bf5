import { z } from 'zod';
import { elementTypes } from '@lectern/core';
import { jsonObject } from './tool-kit.ts';

/*
 * Tool inputs for the content model. They name the fields of the Management API's bodies so an
 * agent knows what to send; the core operation then validates the body as the API does and answers
 * with the API's messages (validation_errors with JSON paths), so nothing here restates its rules.
 */

/** One element of a type or snippet definition; kind-specific fields pass through to the API. */
export const elementDefinition = z
  .object({
    type: z.enum(elementTypes).describe('Element kind'),
    name: z.string().max(200).optional().describe('Display name (not for guidelines or snippet elements)'),
    codename: z.string().max(200).optional(),
    external_id: z.string().max(200).optional(),
    is_required: z.boolean().optional(),
    guidelines: z.string().optional(),
    content_group: jsonObject.optional().describe('{ "codename": … } of the content group it belongs to'),
    snippet: jsonObject.optional().describe('For type "snippet": { "codename": … } of the snippet'),
    taxonomy_group: jsonObject.optional().describe('For type "taxonomy": { "codename": … } of the group'),
    allowed_content_types: z.array(jsonObject).optional().describe('For modular_content/rich_text: types allowed'),
    allowed_item_link_types: z.array(jsonObject).optional(),
    options: z.array(jsonObject).optional().describe('For multiple_choice: [{ name, codename }]'),
    mode: z.string().optional().describe('For multiple_choice: "single" or "multiple"'),
    depends_on: jsonObject.optional().describe('For url_slug: { element: { codename } }'),
  })
  .catchall(z.unknown());

/** The body of `POST /types` (add-content-type-mapi). */
export const contentTypeBody = {
  name: z.string().max(200).describe('Display name'),
  codename: z.string().max(200).optional(),
  external_id: z.string().max(200).optional(),
  content_groups: z.array(jsonObject).optional().describe('[{ name, codename }]; then every element names its group'),
  elements: z.array(elementDefinition).max(500).describe('The elements, in order'),
};

/** The body of `POST /snippets` (add-content-type-snippet-mapi). */
export const snippetBody = {
  name: z.string().max(200),
  codename: z.string().max(200).optional(),
  external_id: z.string().max(200).optional(),
  elements: z.array(elementDefinition).max(500),
};

/** A taxonomy term, with its child terms. */
export const taxonomyTerm: z.ZodType<{ name: string; codename?: string | undefined; terms?: unknown[] | undefined }> =
  z.lazy(() =>
    z
      .object({
        name: z.string().max(200),
        codename: z.string().max(200).optional(),
        external_id: z.string().max(200).optional(),
        terms: z.array(taxonomyTerm).max(1000).optional(),
      })
      .catchall(z.unknown()),
  );

/** The body of `POST /taxonomies` (add-taxonomy-group-mapi). */
export const taxonomyBody = {
  name: z.string().max(200),
  codename: z.string().max(200).optional(),
  external_id: z.string().max(200).optional(),
  terms: z.array(taxonomyTerm).max(1000),
};
