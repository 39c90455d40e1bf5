import { createDeliveryClient, type Elements } from '@kontent-ai/delivery-sdk';
import type { Page } from 'playwright-core';

/* Helpers of the acceptance scenario (acceptance.browser.test.ts). */

/**
 * The innermost elements that reach past the viewport's right edge, each with its parent and
 * grandparent (none: the page does not scroll sideways).
 */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const isOver = (el: Element) => el.getBoundingClientRect().right > width + 0.5;
    return [...document.querySelectorAll('body *')]
      .filter((el) => isOver(el) && ![...el.children].some(isOver))
      .map((el) => {
        const path = [el, el.parentElement, el.parentElement?.parentElement].map(
          (e) => `${e?.tagName.toLowerCase()}.${e?.className}`,
        );
        return `${path.join(' < ')} (${Math.round(el.getBoundingClientRect().right)} px)`;
      });
  });
}

export interface ForgedAnswer {
  readonly status: number;
  readonly body: { error_code: number; message: string };
}

/**
 * Requests a person's page could send by hand, with the session's cookie and its CSRF token
 * (read from `GET /app/api/session`, as the app does): an upsert of the item's default variant
 * and a new version of it.
 */
export function forgeChanges(
  page: Page,
  projectId: string,
  itemId: string,
): Promise<{ upsert: ForgedAnswer; newVersion: ForgedAnswer }> {
  return page.evaluate(
    async ({ projectId, itemId }) => {
      const session = (await (await fetch('/app/api/session')).json()) as { csrf_token: string };
      const send = async (path: string, body: unknown) => {
        const response = await fetch(`/app/api/v2/projects/${projectId}/items/${itemId}${path}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as { error_code: number; message: string } };
      };
      return {
        upsert: await send('/variants/codename/default', {
          elements: [{ element: { codename: 'title' }, value: 'Changed by a reviewer' }],
        }),
        newVersion: await send('/variants/codename/default/new-version', {}),
      };
    },
    { projectId, itemId },
  );
}

const codenames = (value: unknown) => (value as { codename: string }[]).map((o) => o.codename);

/** The item as `@kontent-ai/delivery-sdk` reads it from the Delivery API, summed up for comparison. */
export async function readWithSdk(deliveryUrl: string, projectId: string, codename: string) {
  const client = createDeliveryClient({ environmentId: projectId, proxy: { baseUrl: deliveryUrl } });
  const item = (await client.item(codename).toPromise()).data.item;
  const e = item.elements;
  const richText = e['body'] as Elements.RichTextElement;
  return {
    workflowStep: item.system.workflowStep,
    values: {
      title: e['title']?.value,
      count: e['count']?.value,
      starts_at: e['starts_at']?.value,
      colours: codenames(e['colours']?.value),
      picture: (e['picture'] as Elements.AssetsElement).value.map((a) => a.url),
      related: e['related']?.value,
      seasons: codenames(e['seasons']?.value),
      slug: e['slug']?.value,
      rating: e['rating']?.value,
      subpages: e['subpages']?.value,
      metadata__meta_title: e['metadata__meta_title']?.value,
    },
    displayTimeZone: (e['starts_at'] as Elements.DateTimeElement).displayTimeZone,
    richText: {
      value: richText.value,
      imageIds: richText.images.map((i) => i.imageId),
      linkCodenames: richText.links.map((l) => l.codename),
      componentTexts: richText.linkedItems.map((i) => i.elements['callout_text']?.value),
    },
  };
}
