/*
 * The acceptance scenario's content model, set up through the Management API with a management
 * key, as an operator would: a taxonomy, a component type, a snippet, a page type and a workflow
 * scoped to "Every element", a type with one element of every kind in two content groups, and a
 * published page to link to.
 */

/** A Management API v2 call on the project (the harness's `stack.mapi`). */
export type Mapi = <T = Record<string, unknown>>(
  path: string,
  init?: { method?: string; body?: unknown },
) => Promise<{ status: number; json: T }>;

export interface EveryElementModel {
  readonly typeId: string;
  readonly calloutTypeId: string;
  readonly pageItem: { readonly id: string; readonly codename: string; readonly name: string };
  /** The workflow's regular steps in order (Draft, Review, Ready to publish). */
  readonly steps: readonly { readonly id: string; readonly name: string }[];
  /** Element ids by codename (snippet elements under their own codenames). */
  readonly elementIds: Readonly<Record<string, string>>;
}

async function ok<T>(mapi: Mapi, path: string, method: string, body?: unknown): Promise<T> {
  const answer = await mapi<T>(path, { method, ...(body === undefined ? {} : { body }) });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json;
}

export const guidelines = 'Write for people in a hurry: the first sentence says it all.';

/** Sets the model up; `customElementUrl` is the custom element's page (served by the test). */
export async function setUpEveryElement(mapi: Mapi, customElementUrl: string): Promise<EveryElementModel> {
  await ok(mapi, '/taxonomies', 'POST', {
    name: 'Seasons',
    codename: 'seasons',
    terms: [
      { name: 'Spring', codename: 'spring', terms: [] },
      { name: 'Summer', codename: 'summer', terms: [{ name: 'Late summer', codename: 'late_summer', terms: [] }] },
    ],
  });
  const callout = await ok<{ id: string }>(mapi, '/types', 'POST', {
    name: 'Callout',
    codename: 'callout',
    elements: [{ name: 'Callout text', codename: 'callout_text', type: 'text' }],
  });
  await ok(mapi, '/snippets', 'POST', {
    name: 'Metadata',
    codename: 'metadata',
    elements: [{ name: 'Meta title', codename: 'metadata__meta_title', type: 'text' }],
  });
  await ok(mapi, '/types', 'POST', {
    name: 'Page',
    codename: 'page',
    elements: [{ name: 'Heading', codename: 'heading', type: 'text' }],
  });
  const type = await ok<{ id: string; elements: { id: string; codename: string; type: string }[] }>(
    mapi,
    '/types',
    'POST',
    {
      name: 'Every element',
      codename: 'every_element',
      content_groups: [
        { name: 'Content', codename: 'content' },
        { name: 'Details', codename: 'details' },
      ],
      elements: [
        {
          type: 'guidelines',
          codename: 'writing',
          guidelines: `<p>${guidelines}</p>`,
          content_group: { codename: 'content' },
        },
        {
          name: 'Title',
          codename: 'title',
          type: 'text',
          is_required: true,
          maximum_text_length: { value: 60, applies_to: 'characters' },
          content_group: { codename: 'content' },
        },
        {
          name: 'Body',
          codename: 'body',
          type: 'rich_text',
          allowed_content_types: [{ codename: 'callout' }],
          content_group: { codename: 'content' },
        },
        { name: 'Count', codename: 'count', type: 'number', content_group: { codename: 'details' } },
        { name: 'Starts at', codename: 'starts_at', type: 'date_time', content_group: { codename: 'details' } },
        {
          name: 'Colours',
          codename: 'colours',
          type: 'multiple_choice',
          mode: 'multiple',
          options: [
            { name: 'Red', codename: 'red' },
            { name: 'Green', codename: 'green' },
            { name: 'Blue', codename: 'blue' },
          ],
          content_group: { codename: 'details' },
        },
        { name: 'Picture', codename: 'picture', type: 'asset', content_group: { codename: 'details' } },
        {
          name: 'Related pages',
          codename: 'related',
          type: 'modular_content',
          allowed_content_types: [{ codename: 'page' }],
          content_group: { codename: 'details' },
        },
        {
          name: 'Seasons',
          codename: 'seasons',
          type: 'taxonomy',
          taxonomy_group: { codename: 'seasons' },
          content_group: { codename: 'details' },
        },
        {
          name: 'Slug',
          codename: 'slug',
          type: 'url_slug',
          depends_on: { element: { codename: 'title' } },
          content_group: { codename: 'details' },
        },
        {
          name: 'Rating',
          codename: 'rating',
          type: 'custom',
          source_url: customElementUrl,
          json_parameters: '{"max":5}',
          content_group: { codename: 'details' },
        },
        {
          name: 'Subpages',
          codename: 'subpages',
          type: 'subpages',
          allowed_content_types: [{ codename: 'page' }],
          content_group: { codename: 'details' },
        },
        { type: 'snippet', snippet: { codename: 'metadata' }, content_group: { codename: 'details' } },
      ],
    },
  );
  const workflow = await ok<{ steps: { id: string; name: string }[] }>(mapi, '/workflows', 'POST', {
    name: 'Editorial',
    codename: 'editorial',
    scopes: [{ content_types: [{ codename: 'every_element' }], collections: [] }],
    steps: [
      {
        name: 'Draft',
        codename: 'ed_draft',
        color: 'sky-blue',
        transitions_to: [{ step: { codename: 'ed_review' } }],
        role_ids: [],
      },
      {
        name: 'Review',
        codename: 'ed_review',
        color: 'rose',
        transitions_to: [{ step: { codename: 'ed_ready' } }, { step: { codename: 'ed_draft' } }],
        role_ids: [],
      },
      {
        name: 'Ready to publish',
        codename: 'ed_ready',
        color: 'light-green',
        transitions_to: [{ step: { codename: 'published' } }, { step: { codename: 'ed_review' } }],
        role_ids: [],
      },
    ],
    published_step: { unpublish_role_ids: [], create_new_version_role_ids: [] },
    archived_step: { role_ids: [] },
  });
  const page = await ok<{ id: string; codename: string; name: string }>(mapi, '/items', 'POST', {
    name: 'Opening hours',
    codename: 'opening_hours',
    type: { codename: 'page' },
  });
  await ok(mapi, `/items/${page.id}/variants/codename/default`, 'PUT', {
    elements: [{ element: { codename: 'heading' }, value: 'When we are open' }],
  });
  await ok(mapi, `/items/${page.id}/variants/codename/default/publish`, 'PUT');
  const snippet = await ok<{ elements: { id: string; codename: string }[] }>(
    mapi,
    '/snippets/codename/metadata',
    'GET',
  );
  const elementIds: Record<string, string> = {};
  for (const e of [...type.elements, ...snippet.elements]) elementIds[e.codename] = e.id;
  return { typeId: type.id, calloutTypeId: callout.id, pageItem: page, steps: workflow.steps, elementIds };
}
