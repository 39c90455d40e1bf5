import type { Body } from './definition-draft.ts';
import type { SettingsContext } from './settings-context.ts';
import { OptionsField, DefaultField } from './element-values.tsx';
import { DependsOn, refOf, RegexSettings } from './element-parts.tsx';
import {
  countModes,
  LimitField,
  lengthModes,
  NumberField,
  RefListField,
  SelectField,
  StringListField,
  TextField,
} from './settings-fields.tsx';

const blocks = ['images', 'text', 'tables', 'components-and-items'];
const textBlocks = [
  'paragraph',
  'heading-one',
  'heading-two',
  'heading-three',
  'heading-four',
  'heading-five',
  'heading-six',
  'ordered-list',
  'unordered-list',
];
const formatting = ['unstyled', 'bold', 'italic', 'code', 'link', 'subscript', 'superscript'];

function typeChoices(c: SettingsContext) {
  return c.types.map((t) => ({ ref: { id: t.id }, label: t.name }));
}

/** The settings of one element kind, as the Management API names them (reference §4). */
export function KindSettings({
  body,
  c,
  onChange,
}: {
  body: Body;
  c: SettingsContext;
  onChange: (prop: string, value: unknown) => void;
}) {
  const p = { body, onChange };
  switch (body['type']) {
    case 'text':
      return (
        <>
          <LimitField
            {...p}
            prop="maximum_text_length"
            label="Limit text length"
            modeProp="applies_to"
            modes={lengthModes}
          />
          <RegexSettings {...p} />
          <DefaultField {...p} c={c} />
        </>
      );
    case 'rich_text':
      return (
        <>
          <LimitField
            {...p}
            prop="maximum_text_length"
            label="Limit text length"
            modeProp="applies_to"
            modes={lengthModes}
          />
          <NumberField {...p} prop="maximum_image_size" label="Maximum image size (bytes)" />
          <LimitField
            {...p}
            prop="image_width_limit"
            label="Image width (px)"
            modeProp="condition"
            modes={countModes}
          />
          <LimitField
            {...p}
            prop="image_height_limit"
            label="Image height (px)"
            modeProp="condition"
            modes={countModes}
          />
          <SelectField
            {...p}
            prop="allowed_image_types"
            label="Allowed image types"
            choices={[
              ['any', 'Any'],
              ['adjustable', 'Adjustable images only'],
            ]}
          />
          <RefListField
            {...p}
            prop="allowed_content_types"
            label="Allowed content types of components and linked items (none: all)"
            choices={typeChoices(c)}
          />
          <RefListField
            {...p}
            prop="allowed_item_link_types"
            label="Allowed content types of item links (none: all)"
            choices={typeChoices(c)}
          />
          <StringListField {...p} prop="allowed_blocks" label="Allowed blocks" choices={blocks} />
          <StringListField {...p} prop="allowed_text_blocks" label="Allowed text blocks" choices={textBlocks} />
          <StringListField {...p} prop="allowed_formatting" label="Allowed formatting" choices={formatting} />
          <StringListField
            {...p}
            prop="allowed_table_blocks"
            label="Allowed blocks in tables"
            choices={['images', 'text']}
          />
          <StringListField
            {...p}
            prop="allowed_table_text_blocks"
            label="Allowed text blocks in tables"
            choices={textBlocks}
          />
          <StringListField
            {...p}
            prop="allowed_table_formatting"
            label="Allowed formatting in tables"
            choices={formatting}
          />
        </>
      );
    case 'number':
    case 'date_time':
      return <DefaultField {...p} c={c} />;
    case 'multiple_choice':
      return (
        <>
          <SelectField
            {...p}
            prop="mode"
            label="Mode"
            choices={[
              ['single', 'Single option (radio buttons)'],
              ['multiple', 'Multiple options (checkboxes)'],
            ]}
          />
          <OptionsField {...p} />
          <DefaultField {...p} c={c} />
        </>
      );
    case 'asset':
      return (
        <>
          <LimitField
            {...p}
            prop="asset_count_limit"
            label="Limit number of assets"
            modeProp="condition"
            modes={countModes}
          />
          <NumberField {...p} prop="maximum_file_size" label="Maximum file size (bytes)" />
          <SelectField
            {...p}
            prop="allowed_file_types"
            label="Allowed file types"
            choices={[
              ['any', 'Any'],
              ['adjustable', 'Adjustable images only'],
            ]}
          />
          <LimitField
            {...p}
            prop="image_width_limit"
            label="Image width (px)"
            modeProp="condition"
            modes={countModes}
          />
          <LimitField
            {...p}
            prop="image_height_limit"
            label="Image height (px)"
            modeProp="condition"
            modes={countModes}
          />
        </>
      );
    case 'modular_content':
    case 'subpages':
      return (
        <>
          <LimitField
            {...p}
            prop="item_count_limit"
            label="Limit number of items"
            modeProp="condition"
            modes={countModes}
          />
          <RefListField
            {...p}
            prop="allowed_content_types"
            label="Allowed content types (none: all)"
            choices={typeChoices(c)}
          />
        </>
      );
    case 'taxonomy':
      return (
        <>
          <SelectField
            {...p}
            body={{ taxonomy_group: (body['taxonomy_group'] as Body | undefined)?.['id'] ?? '' }}
            prop="taxonomy_group"
            label="Taxonomy group"
            onChange={(_, v) => onChange('taxonomy_group', v ? { id: v } : null)}
            choices={[['', 'Choose a taxonomy group'], ...c.taxonomies.map((t) => [t.id, t.name] as const)]}
          />
          <LimitField
            {...p}
            prop="term_count_limit"
            label="Limit number of terms"
            modeProp="condition"
            modes={countModes}
          />
          <DefaultField {...p} c={c} />
        </>
      );
    case 'url_slug':
      return (
        <>
          <DependsOn {...p} c={c} />
          <RegexSettings {...p} />
        </>
      );
    case 'custom':
      return (
        <>
          <TextField {...p} prop="source_url" label="Hosted code URL (HTTPS)" />
          <TextField {...p} prop="json_parameters" label="Parameters {JSON}" isMultiline />
          <RefListField
            {...p}
            prop="allowed_elements"
            label="Elements the custom element can read"
            choices={c.elements
              .filter((e) => e.body !== body && !['guidelines', 'snippet'].includes(String(e.body['type'])))
              .map((e) => ({ ref: refOf(e.body), label: String(e.body['name'] ?? e.body['codename']) }))}
          />
        </>
      );
    case 'snippet':
      return (
        <SelectField
          {...p}
          body={{ snippet: (body['snippet'] as Body | undefined)?.['id'] ?? '' }}
          prop="snippet"
          label="Snippet"
          onChange={(_, v) => onChange('snippet', v ? { id: v } : null)}
          choices={[['', 'Choose a snippet'], ...c.snippets.map((s) => [s.id, s.name] as const)]}
        />
      );
    default:
      return null;
  }
}
