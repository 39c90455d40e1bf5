import { attributeOf, checkAttributes, pushUnique, type ConvertContext, type Parse5Element } from './context.ts';
import { resolveReference } from './embeds.ts';

/** The attributes that say what a link points at; exactly one group per link. */
const targets = {
  web: ['href'],
  item: ['data-item-id', 'data-item-external-id', 'data-item-codename'],
  asset: ['data-asset-id', 'data-asset-external-id', 'data-asset-codename'],
  email: ['data-email-address'],
  phone: ['data-phone-number'],
} as const;

type Target = keyof typeof targets;

const allowed = [...Object.values(targets).flat(), 'data-email-subject', 'data-new-window', 'title'];

/** Schemes that run code when followed; refused rather than stored. */
const unsafeSchemes = new Set(['javascript', 'vbscript', 'data']);

/**
 * The attributes of a link in response form, or null after a problem. Children are the
 * caller's business. Order: target, `data-email-subject`, `data-new-window`, `title`.
 */
export function convertLinkAttributes(
  link: Parse5Element,
  context: ConvertContext,
): (readonly [string, string])[] | null {
  const isClean = checkAttributes(link, allowed, context);
  const present = (Object.keys(targets) as Target[]).filter((target) =>
    targets[target].some((name) => attributeOf(link, name) !== undefined),
  );
  if (present.length !== 1) {
    const what = present.length === 0 ? 'needs' : 'takes only one of';
    context.report(
      link,
      `<a>{at} ${what} href, data-item-id (or data-item-external-id), data-asset-id, data-email-address or data-phone-number.`,
    );
    return null;
  }
  const target = present[0] ?? 'web';
  const attrs: (readonly [string, string])[] = [];
  let isValid = isClean;
  switch (target) {
    case 'web': {
      const href = normalizeHref(link, context);
      if (href === null) isValid = false;
      else attrs.push(['href', href]);
      break;
    }
    case 'item':
    case 'asset': {
      const id = resolveReference({ element: link, prefix: `data-${target}-`, kind: target, context });
      if (id === null) {
        isValid = false;
        break;
      }
      pushUnique(target === 'item' ? context.itemIds : context.assetIds, id);
      attrs.push([`data-${target}-id`, id]);
      break;
    }
    case 'email':
    case 'phone': {
      const name = targets[target][0];
      const value = attributeOf(link, name) ?? '';
      if (value.trim() === '') {
        context.report(link, `Attribute ${name} on <a>{at} is empty.`);
        isValid = false;
      } else attrs.push([name, value]);
      break;
    }
  }
  const subject = attributeOf(link, 'data-email-subject');
  if (subject !== undefined) {
    if (target === 'email') attrs.push(['data-email-subject', subject]);
    else {
      context.report(link, `Attribute data-email-subject on <a>{at} belongs to email links (data-email-address).`);
      isValid = false;
    }
  }
  const newWindow = attributeOf(link, 'data-new-window');
  if (newWindow !== undefined) {
    if ((target === 'web' || target === 'asset') && newWindow === 'true') attrs.push(['data-new-window', 'true']);
    else {
      context.report(
        link,
        `Attribute data-new-window on <a>{at} must be "true" and belongs to web and asset links (omit it to open in the same window).`,
      );
      isValid = false;
    }
  }
  const title = attributeOf(link, 'title');
  if (title !== undefined) attrs.push(['title', title]);
  return isValid ? attrs : null;
}

/** SPEC 2.4 rule 4: a value without a scheme is taken as a host and gets `http://`. */
function normalizeHref(link: Parse5Element, context: ConvertContext): string | null {
  const href = (attributeOf(link, 'href') ?? '').trim();
  if (href === '') {
    context.report(link, `Attribute href on <a>{at} is empty; give the URL to link to.`);
    return null;
  }
  // Browsers skip control characters and spaces inside a scheme (`java\tscript:`); so does this check.
  const compact = [...href].filter((c) => c.charCodeAt(0) > 0x20).join('');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  if (scheme !== undefined && unsafeSchemes.has(scheme)) {
    context.report(link, `Link <a>{at} uses the ${scheme}: scheme, which is not allowed.`);
    return null;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  return href.startsWith('//') ? `http:${href}` : `http://${href}`;
}
