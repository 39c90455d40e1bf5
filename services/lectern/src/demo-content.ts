import { addItem, operator, publishVariant, upsertVariant, type CoreDeps } from '@lectern/core';

interface DemoArticle {
  readonly codename: string;
  readonly title: string;
  readonly summary: string;
  readonly body: string;
  readonly topic: string;
  readonly readingTime: number;
  readonly publishedOn: string;
}

const articles: readonly DemoArticle[] = [
  {
    codename: 'caching_delivery_responses',
    title: 'Caching delivery responses',
    summary: 'How a response cache keyed by the index watermark keeps reads fast and never stale.',
    body: 'Every published change moves the watermark, so a cached answer is reused only while nothing it depends on has changed.',
    topic: 'engineering',
    readingTime: 6,
    publishedOn: '2026-03-02T09:00:00Z',
  },
  {
    codename: 'modelling_content_types',
    title: 'Modelling content types',
    summary: 'Snippets, taxonomies and linked items: a small content model that grows well.',
    body: 'Start from what editors write and what pages show; share repeated fields through snippets.',
    topic: 'design',
    readingTime: 4,
    publishedOn: '2026-04-14T09:00:00Z',
  },
  {
    codename: 'pricing_a_self_hosted_platform',
    title: 'Pricing a self-hosted platform',
    summary: 'What a team pays for when it runs its own content platform.',
    body: 'Machines, engines and the people who keep them running: the costs that replace a subscription.',
    topic: 'pricing',
    readingTime: 5,
    publishedOn: '2026-05-20T09:00:00Z',
  },
];

const text = (codename: string, value: unknown) => ({ element: { codename }, value });

/**
 * The demo project's content: an author and three articles, published, so that Delivery, GraphQL
 * and Smart Recommendations answer with something on the first start. Written through the same
 * operations the Management API serves.
 */
export async function seedDemoContent(core: CoreDeps, projectId: string): Promise<void> {
  const input = { actor: operator, projectId };
  const publish = async (codename: string, elements: unknown[]) => {
    const variant = { ...input, itemKey: { codename }, languageKey: { codename: 'default' } };
    await upsertVariant(core, { ...variant, body: { elements } });
    await publishVariant(core, variant);
  };
  await addItem(core, { ...input, body: { name: 'Ada Editor', codename: 'ada_editor', type: { codename: 'author' } } });
  await publish('ada_editor', [
    text('name', 'Ada Editor'),
    text('bio', '<p>Writes about content platforms and the engineering behind them.</p>'),
  ]);
  for (const article of articles) {
    await addItem(core, {
      ...input,
      body: { name: article.title, codename: article.codename, type: { codename: 'article' } },
    });
    await publish(article.codename, [
      text('title', article.title),
      text('summary', article.summary),
      text('body', `<p>${article.body}</p>`),
      text('published_on', article.publishedOn),
      text('reading_time', article.readingTime),
      text('authors', [{ codename: 'ada_editor' }]),
      text('topics', [{ codename: article.topic }]),
    ]);
  }
}
