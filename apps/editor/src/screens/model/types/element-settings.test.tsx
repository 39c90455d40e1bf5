// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Body } from './definition-draft.ts';
import { KindSettings } from './element-settings.tsx';
import type { SettingsContext } from './settings-context.ts';

/*
 * The settings of the element kinds the Chromium scenario does not fill: each input writes the
 * property and value shape the Management API reads (reference §4).
 */

afterEach(cleanup);

const context: SettingsContext = {
  types: [{ id: 't1', name: 'Callout', codename: 'callout', elements: [] }],
  snippets: [],
  taxonomies: [
    {
      id: 'g1',
      name: 'Seasons',
      codename: 'seasons',
      terms: [
        {
          id: 's1',
          name: 'Summer',
          codename: 'summer',
          terms: [{ id: 's2', name: 'Late', codename: 'late', terms: [] }],
        },
      ],
    },
  ],
  elements: [{ key: 'e1', body: { id: 'e1', type: 'text', name: 'Title', codename: 'title' } }],
};

/** Renders the settings of `start` and answers the body as the person leaves it. */
function settings(start: Body) {
  let latest = start;
  function Harness() {
    const [body, setBody] = useState(start);
    return (
      <KindSettings
        body={body}
        c={context}
        onChange={(prop, value) => {
          latest = { ...latest, [prop]: value };
          setBody(latest);
        }}
      />
    );
  }
  render(<Harness />);
  return () => latest;
}

const group = (name: RegExp | string) => screen.getByRole('group', { name });

describe('element settings', () => {
  it('rich text: limits, image settings, allowed types and string lists in the API shape', () => {
    const body = settings({ type: 'rich_text', name: 'Body' });
    fireEvent.change(within(group('Limit text length')).getByLabelText('Condition'), { target: { value: 'words' } });
    fireEvent.change(within(group('Limit text length')).getByLabelText('Value'), { target: { value: '300' } });
    fireEvent.change(screen.getByLabelText('Maximum image size (bytes)'), { target: { value: '2048' } });
    fireEvent.change(within(group('Image width (px)')).getByLabelText('Value'), { target: { value: '640' } });
    fireEvent.change(screen.getByLabelText('Allowed image types'), { target: { value: 'adjustable' } });
    fireEvent.click(within(group(/^Allowed content types of components/)).getByLabelText('Callout'));
    fireEvent.click(within(group(/^Allowed blocks \(/)).getByLabelText('text'));
    fireEvent.click(within(group(/^Allowed blocks \(/)).getByLabelText('images'));
    fireEvent.click(within(group(/^Allowed formatting in tables/)).getByLabelText('bold'));
    expect(body()).toMatchObject({
      maximum_text_length: { value: 300, applies_to: 'words' },
      maximum_image_size: 2048,
      image_width_limit: { value: 640, condition: 'at_most' },
      allowed_image_types: 'adjustable',
      allowed_content_types: [{ id: 't1' }],
      allowed_blocks: ['images', 'text'],
      allowed_table_formatting: ['bold'],
    });
    fireEvent.change(within(group('Limit text length')).getByLabelText('Value'), { target: { value: '' } });
    expect(body()['maximum_text_length']).toBeNull();
  });

  it('custom element: URL, JSON parameters and the elements it may read', () => {
    const body = settings({ type: 'custom', name: 'Rating' });
    fireEvent.change(screen.getByLabelText('Hosted code URL (HTTPS)'), { target: { value: 'https://x.test/e' } });
    fireEvent.change(screen.getByLabelText('Parameters {JSON}'), { target: { value: '{"max":5}' } });
    fireEvent.click(within(group('Elements the custom element can read')).getByLabelText('Title'));
    expect(body()).toMatchObject({
      source_url: 'https://x.test/e',
      json_parameters: '{"max":5}',
      allowed_elements: [{ id: 'e1' }],
    });
  });

  it('asset, taxonomy and text: counts, sizes, the group, default terms, regex with flags', () => {
    const asset = settings({ type: 'asset', name: 'Picture' });
    fireEvent.change(within(group('Limit number of assets')).getByLabelText('Condition'), {
      target: { value: 'exactly' },
    });
    fireEvent.change(within(group('Limit number of assets')).getByLabelText('Value'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Maximum file size (bytes)'), { target: { value: '1000' } });
    expect(asset()).toMatchObject({ asset_count_limit: { value: 2, condition: 'exactly' }, maximum_file_size: 1000 });
    cleanup();

    const taxonomy = settings({ type: 'taxonomy', name: 'Seasons' });
    fireEvent.change(screen.getByLabelText('Taxonomy group'), { target: { value: 'g1' } });
    fireEvent.click(within(group('Default value')).getByLabelText('— Late'));
    expect(taxonomy()).toMatchObject({ taxonomy_group: { id: 'g1' }, default: { global: { value: [{ id: 's2' }] } } });
    cleanup();

    const text = settings({ type: 'text', name: 'Code' });
    const regex = within(group('Validation regex'));
    fireEvent.change(regex.getByLabelText('Pattern'), { target: { value: '^[A-Z]+$' } });
    fireEvent.change(regex.getByLabelText('Flags'), { target: { value: 'i' } });
    fireEvent.change(regex.getByLabelText('Validation message'), { target: { value: 'Letters only' } });
    fireEvent.change(screen.getByLabelText('Default value'), { target: { value: 'ABC' } });
    expect(text()).toMatchObject({
      validation_regex: { regex: '^[A-Z]+$', flags: 'i', validation_message: 'Letters only', is_active: true },
      default: { global: { value: 'ABC' } },
    });
  });
});
