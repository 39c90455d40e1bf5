import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { ItemCondition, ItemFilter, TypeElements } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { ModelType } from '../schema/content-model.ts';
import { ItemLoader } from './item-loader.ts';
import { badInput, pageBounds, variantView, type ViewContext } from './item-view.ts';
import { leafFilters, orderOf, whereFilters } from './where-order.ts';
import { valuePaths, writtenPaths } from './written-order.ts';
import type { ReadScopeLike } from './read-scope.ts';

/** What the root resolvers of one request share. */
export interface QueryContext {
  readonly scope: ReadScopeLike;
  readonly types: ReadonlyMap<string, ModelType>;
  readonly languageNames: ReadonlyMap<string, string>;
  readonly typeNames: ReadonlyMap<string, string>;
  readonly typeElements: TypeElements;
  readonly maxLimit: number;
  readonly isWhereCombined: boolean;
  /** The request's variables as sent (their key order gives a multi-field `order` its priority). */
  readonly variables: Readonly<Record<string, unknown>>;
  /** Items and components returned so far (the `X-Request-Charge`). */
  charge: number;
}

interface RootArgs {
  readonly codename?: string | null;
  readonly id?: string | null;
  readonly languageFilter?: { readonly languageCodename: string } | null;
  readonly offset?: number | null;
  readonly limit?: number | null;
  readonly where?: Readonly<Record<string, unknown>> | null;
  readonly order?: Readonly<Record<string, unknown>> | null;
}

const isFilter = (c: ItemCondition): c is ItemFilter => 'property' in c;

/** Whether a selection set asks for `name`, through fragments too. */
function selects(
  set: SelectionSetNode | undefined,
  name: string,
  info: GraphQLResolveInfo,
  seen = new Set<string>(),
): boolean {
  for (const s of set?.selections ?? []) {
    if (s.kind === Kind.FIELD && s.name.value === name) return true;
    if (s.kind === Kind.INLINE_FRAGMENT && selects(s.selectionSet, name, info, seen)) return true;
    if (s.kind === Kind.FRAGMENT_SPREAD && !seen.has(s.name.value)) {
      seen.add(s.name.value);
      if (selects(info.fragments[s.name.value]?.selectionSet, name, info, seen)) return true;
    }
  }
  return false;
}

/** The language chain of a root query; an unknown language is a query error, not an HTTP one. */
async function languagesOf(ctx: QueryContext, args: RootArgs, isFallbackDisabled: boolean): Promise<string[]> {
  try {
    return await ctx.scope.languageChain(args.languageFilter?.languageCodename ?? null, isFallbackDisabled);
  } catch (error) {
    if (error instanceof LecternError && error.kind === 'invalid') throw badInput(error.message);
    throw error;
  }
}

function viewContext(ctx: QueryContext, languages: readonly string[]): ViewContext {
  const { scope } = ctx;
  return {
    types: ctx.types,
    languageNames: ctx.languageNames,
    typeNames: ctx.typeNames,
    maxLimit: ctx.maxLimit,
    loader: new ItemLoader(async (codenames) => {
      const found = await scope.index.itemsByCodename({
        projectId: scope.projectId,
        channel: scope.channel,
        languages,
        codenames,
        pin: scope.pin,
      });
      ctx.charge += found.length;
      return found;
    }),
  };
}

/** `<type>(codename, id, languageFilter)` and `<type>_All(…)` for every content type (SPEC 4.4). */
export function rootValue(types: readonly ModelType[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const type of types) {
    const typeFilter: ItemFilter = { property: 'system.type', operator: 'eq', values: [type.codename] };
    root[type.rootField] = async (args: RootArgs, ctx: QueryContext) => {
      const key = args.codename ?? null;
      const id = args.id ?? null;
      if (key === null && id === null) throw badInput(`${type.rootField} needs a codename or an id.`);
      const languages = await languagesOf(ctx, args, false);
      const filters: ItemFilter[] = [typeFilter];
      if (key !== null) filters.push({ property: 'system.codename', operator: 'eq', values: [key] });
      if (id !== null) filters.push({ property: 'system.id', operator: 'eq', values: [id.toLowerCase()] });
      const { scope } = ctx;
      const found = await scope.index.queryItems({
        projectId: scope.projectId,
        channel: scope.channel,
        pin: scope.pin,
        languages,
        typeElements: ctx.typeElements,
        filters,
        order: null,
        skip: 0,
        limit: 1,
        isTotalCountNeeded: false,
      });
      const variant = found.items[0];
      if (variant === undefined) return null;
      ctx.charge += 1;
      return variantView(variant, viewContext(ctx, languages));
    };
    root[`${type.rootField}_All`] = async (args: RootArgs, ctx: QueryContext, info: GraphQLResolveInfo) => {
      const { offset, limit } = pageBounds(args, ctx.maxLimit);
      const field = info.fieldNodes[0] as FieldNode;
      const where = whereFilters({ type, where: args.where, isCombined: ctx.isWhereCombined });
      const orderNode = field.arguments?.find((a) => a.name.value === 'order')?.value;
      const paths = orderNode === undefined ? valuePaths(args.order) : writtenPaths(orderNode, ctx.variables);
      const [order = null, ...thenBy] = orderOf({ type, order: args.order, paths });
      // Filtering by language, anywhere in the where, turns the fallbacks off.
      const isFallbackDisabled = [...leafFilters(where)].some((f) => f.property === 'system.language');
      const languages = await languagesOf(ctx, args, isFallbackDisabled);
      const { scope } = ctx;
      const found = await scope.index.queryItems({
        projectId: scope.projectId,
        channel: scope.channel,
        pin: scope.pin,
        languages,
        typeElements: ctx.typeElements,
        filters: [typeFilter, ...where.filter(isFilter)],
        conditions: where.filter((c) => !isFilter(c)),
        order,
        thenBy,
        skip: offset,
        limit,
        isTotalCountNeeded: selects(field.selectionSet, 'totalCount', info),
      });
      ctx.charge += found.items.length;
      const views = viewContext(ctx, languages);
      return {
        items: found.items.flatMap((v) => variantView(v, views) ?? []),
        offset,
        limit,
        totalCount: found.totalCount ?? 0,
      };
    };
  }
  return root;
}
