import type { Request } from 'express';
import { isUuid, type RecordKey } from '@lectern/core';
import { LecternError, type ErrorCode } from '@lectern/errors';

/** The three forms of an item identifier (SPEC 4), with parameters distinct from the language's. */
export const itemPaths = ['/items/codename/:itemCodename', '/items/external-id/:itemExternalId', '/items/:itemId'];
const languageForms = [
  '/variants/codename/:langCodename',
  '/variants/external-id/:langExternalId',
  '/variants/:langId',
];

/** Every `/items/{item}/variants/{language}` path form, with an optional suffix such as `/publish`. */
export function variantPaths(suffix = ''): string[] {
  return itemPaths.flatMap((item) => languageForms.map((lang) => `${item}${lang}${suffix}`));
}

/** `/items/{item}/variants`. */
export const itemVariantsPaths = itemPaths.map((p) => `${p}/variants`);

function keyOf(params: Record<string, unknown>, prefix: 'item' | 'lang', notFound: ErrorCode): RecordKey {
  const codename = params[`${prefix}Codename`];
  const externalId = params[`${prefix}ExternalId`];
  if (typeof codename === 'string') return { codename };
  if (typeof externalId === 'string') return { externalId };
  const id = typeof params[`${prefix}Id`] === 'string' ? (params[`${prefix}Id`] as string) : '';
  if (!isUuid(id))
    throw new LecternError(notFound, {
      message: `'${id}' is not an id. Use an id, codename/<codename> or external-id/<external id>.`,
    });
  return { id: id.toLowerCase() };
}

export function itemKeyOf(req: Request): RecordKey {
  return keyOf(req.params, 'item', 'ITEM_NOT_FOUND');
}

export function languageKeyOf(req: Request): RecordKey {
  return keyOf(req.params, 'lang', 'LANGUAGE_NOT_FOUND');
}
