import { z } from 'zod';
import { filterOperators, type DeliveryIndexReader, type FilterOperator, type IndexedLanguage } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { tool, type AnyTool } from './tool-kit.ts';

/** Most items one query answers (the agent pages with skip). */
export const maxDeliveryLimit = 100;

const propertyPattern =
  /^(?:system\.(?:id|name|codename|language|type|collection|last_modified|workflow|workflow_step)|elements\.[A-Za-z0-9_]{1,200})$/;
const property = z
  .string()
  .regex(
    propertyPattern,
    'must be system.<id|name|codename|language|type|collection|last_modified|workflow|workflow_step> or elements.<element codename>',
  )
  .describe('system.<name> or elements.<element codename>');

/** How many values each operator takes (SPEC 4.3): [least, most]. */
const arity = (operator: FilterOperator): [number, number] =>
  operator === 'empty' || operator === 'nempty'
    ? [0, 0]
    : operator === 'range'
      ? [2, 2]
      : ['in', 'nin', 'any', 'all'].includes(operator)
        ? [1, 100]
        : [1, 1];

const filter = z
  .object({ property, operator: z.enum(filterOperators), values: z.array(z.string().max(1000)).max(100) })
  .refine(
    (f) => f.values.length >= arity(f.operator)[0] && f.values.length <= arity(f.operator)[1],
    'wrong number of values for the operator (empty/nempty: none; range: two; in/nin/any/all: one or more; others: one)',
  );

/** `language` then its fallbacks, as the Delivery API tries them (a cycle ends the chain). */
function languageChain(languages: readonly IndexedLanguage[], codename: string | undefined): string[] {
  const start = codename ?? languages.find((l) => l.isDefault)?.system.codename;
  if (start === undefined) return [];
  if (!languages.some((l) => l.system.codename === start))
    throw new LecternError('LANGUAGE_NOT_FOUND', { message: `The language '${start}' is not active in Delivery.` });
  const chain: string[] = [];
  for (let c: string | null | undefined = start; c && !chain.includes(c);) {
    chain.push(c);
    c = languages.find((l) => l.system.codename === c)?.fallbackCodename;
  }
  return chain;
}

/** Published content as the Delivery API serves it, read from the Delivery index. */
export function deliveryTools(index: DeliveryIndexReader): readonly AnyTool[] {
  return [
    tool({
      name: 'query-delivery',
      title: 'Query published content',
      description:
        'Published items as the Delivery API returns them (from the Delivery index, so what visitors see), with ' +
        'language fallbacks. Filter by type, codename or any system./elements. property, order, and page with skip.',
      input: {
        language: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,100}$/)
          .optional()
          .describe('Language codename (default: the default language)'),
        type: z
          .string()
          .regex(/^[A-Za-z0-9_]{1,200}$/)
          .optional()
          .describe('Content type codename'),
        codename: z
          .string()
          .regex(/^[A-Za-z0-9_]{1,200}$/)
          .optional()
          .describe('One item by codename'),
        filters: z.array(filter).max(20).optional(),
        order: z
          .object({ property, direction: z.enum(['asc', 'desc']) })
          .optional()
          .describe('Default: by codename'),
        skip: z.number().int().min(0).max(1_000_000).optional(),
        limit: z
          .number()
          .int()
          .min(1)
          .max(maxDeliveryLimit)
          .optional()
          .describe(`At most ${maxDeliveryLimit}, default 10`),
      },
      isReadOnly: true,
      run: async (args, context) => {
        const languages = languageChain(await index.languages(context.projectId), args.language);
        const skip = args.skip ?? 0;
        const limit = args.limit ?? 10;
        // Nothing indexed yet (no language reached the index): nothing is published.
        if (languages.length === 0) return { items: [], pagination: { skip, limit, count: 0, total_count: 0 } };
        const filters = [
          ...(args.type === undefined
            ? []
            : [{ property: 'system.type', operator: 'eq' as const, values: [args.type] }]),
          ...(args.codename === undefined
            ? []
            : [{ property: 'system.codename', operator: 'eq' as const, values: [args.codename] }]),
          ...(args.filters ?? []),
        ];
        const result = await index.queryItems({
          projectId: context.projectId,
          channel: 'production',
          languages,
          filters,
          order: args.order ?? null,
          skip,
          limit,
          isTotalCountNeeded: true,
        });
        return {
          items: result.items.map((v) => ({ ...v.item, components: v.components })),
          pagination: { skip, limit, count: result.items.length, total_count: result.totalCount },
        };
      },
    }),
  ];
}
