import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const codename = z.string().max(200);
const user = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

/** Prompts for common jobs; each names only this server's tools. */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'translate-item',
    {
      title: 'Translate an item',
      description: 'Translate a content item into another language, as a draft in that language.',
      argsSchema: {
        item_codename: codename.describe('Codename of the item'),
        language_codename: codename.describe('Codename of the target language'),
        source_language_codename: codename
          .optional()
          .describe('Language to translate from (default: the default language)'),
      },
    },
    (args) =>
      user(
        [
          `Translate the content item "${args.item_codename}" into the language "${args.language_codename}".`,
          '1. Call get-initial-context, then get-item-mapi with { "codename": "' +
            args.item_codename +
            '" } to read the item and its variants' +
            (args.source_language_codename
              ? ` (translate from "${args.source_language_codename}").`
              : ' (translate from the default language).'),
          '2. Call get-type-mapi for its content type to learn each element’s kind.',
          '3. Translate text and rich text values. Keep rich text HTML structure, <object> tags, links, and component ids; ' +
            'translate the components’ text too. Copy numbers, dates, assets, linked items and taxonomy terms unchanged. Leave url_slug out so it is regenerated.',
          `4. Call upsert-language-variant-mapi with item { "codename": "${args.item_codename}" }, language { "codename": "${args.language_codename}" } and the translated elements.`,
          '5. If it is refused, read validation_errors, fix those paths and retry. Do not publish; report what you changed.',
        ].join('\n'),
      ),
  );
  server.registerPrompt(
    'draft-item',
    {
      title: 'Draft an item from notes',
      description: 'Draft a new content item of a type (an article, say) from notes, unpublished.',
      argsSchema: {
        type_codename: codename.describe('Codename of the content type, e.g. article'),
        notes: z.string().max(20_000).describe('The notes to draft from'),
        language_codename: codename.optional().describe('Language of the draft (default: the default language)'),
      },
    },
    (args) =>
      user(
        [
          `Draft a new content item of type "${args.type_codename}" from these notes:`,
          '<notes>',
          args.notes,
          '</notes>',
          `1. Call get-type-mapi with { "codename": "${args.type_codename}" } to learn its elements (kinds, required, limits, guidelines).`,
          '2. Call add-content-item-mapi with a short name and that type.',
          '3. Call upsert-language-variant-mapi for the new item in ' +
            (args.language_codename
              ? `language { "codename": "${args.language_codename}" }`
              : 'the default language (see list-languages-mapi)') +
            ' with a value for every element the notes support; rich text as HTML (<p>, <h2>, <ul>…).',
          '4. If it is refused, read validation_errors, fix those paths and retry. Leave it in its first workflow step (do not publish) and report the item’s codename.',
        ].join('\n'),
      ),
  );
}
