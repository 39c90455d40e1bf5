import * as core from '@lectern/core';
import { operator } from '@lectern/core';
import { m, v, type AuditCase } from './audit-case-kit.ts';

/** Projects, keys and the content model, then an item and its variant (audit-operations.int.test.ts). In order. */
export const modelCases: AuditCase[] = [
  [
    'createProject',
    'project.create',
    async (c) => {
      c.state['project2'] = (await core.createProject(c.deps, { actor: operator, name: 'Second' })).id;
    },
  ],
  [
    'updateProject',
    'project.',
    (c) =>
      core.updateProject(c.deps, {
        actor: operator,
        projectId: c.state['project2'] as string,
        name: 'Renamed',
      } as never),
  ],
  [
    'createApiKey',
    'api_key.create',
    async (c) => {
      c.state['key'] = (
        await core.createApiKey(c.deps, { actor: operator, projectId: c.projectId, kind: 'delivery_primary' } as never)
      ).key.id;
    },
  ],
  [
    'regenerateApiKey',
    'api_key.regenerate',
    async (c) => {
      c.state['key'] = (
        await core.regenerateApiKey(c.deps, { actor: operator, keyId: c.state['key'] as string })
      ).key.id;
    },
  ],
  [
    'revokeApiKey',
    'api_key.revoke',
    (c) => core.revokeApiKey(c.deps, { actor: operator, keyId: c.state['key'] as string }),
  ],
  [
    'addLanguage',
    'language.create',
    (c) => core.addLanguage(c.deps, { ...m(c), body: { name: 'German', codename: 'de', is_active: true } }),
  ],
  [
    'modifyLanguage',
    'language.update',
    (c) =>
      core.modifyLanguage(c.deps, {
        ...m(c),
        key: { codename: 'de' },
        operations: [{ op: 'replace', property_name: 'name', value: 'Deutsch' }],
      } as never),
  ],
  [
    'addTaxonomy',
    'taxonomy.create',
    (c) => core.addTaxonomy(c.deps, { ...m(c), body: { name: 'Topics', codename: 'topics', terms: [] } }),
  ],
  [
    'modifyTaxonomy',
    'taxonomy.update',
    (c) =>
      core.modifyTaxonomy(c.deps, {
        ...m(c),
        key: { codename: 'topics' },
        operations: [{ op: 'replace', property_name: 'name', value: 'Subjects' }],
      } as never),
  ],
  ['deleteTaxonomy', 'taxonomy.delete', (c) => core.deleteTaxonomy(c.deps, { ...m(c), key: { codename: 'topics' } })],
  ['addSpace', 'space.create', (c) => core.addSpace(c.deps, { ...m(c), body: { name: 'Web', codename: 'web' } })],
  [
    'modifySpace',
    'space.update',
    (c) =>
      core.modifySpace(c.deps, {
        ...m(c),
        key: { codename: 'web' },
        operations: [{ op: 'replace', property_name: 'name', value: 'Site' }],
      } as never),
  ],
  ['deleteSpace', 'space.delete', (c) => core.deleteSpace(c.deps, { ...m(c), key: { codename: 'web' } })],
  [
    'addContentType',
    'content_type.create',
    (c) =>
      core.addContentType(c.deps, {
        ...m(c),
        body: { name: 'Article', codename: 'article', elements: [{ type: 'text', name: 'Title', codename: 'title' }] },
      } as never),
  ],
  [
    'modifyContentType',
    'content_type.update',
    (c) =>
      core.modifyContentType(c.deps, {
        ...m(c),
        key: { codename: 'article' },
        operations: [{ op: 'replace', path: '/name', value: 'Story' }],
      } as never),
  ],
  [
    'addSnippet',
    'snippet.create',
    (c) => core.addSnippet(c.deps, { ...m(c), body: { name: 'Seo', codename: 'seo', elements: [] } } as never),
  ],
  [
    'modifySnippet',
    'snippet.update',
    (c) =>
      core.modifySnippet(c.deps, {
        ...m(c),
        key: { codename: 'seo' },
        operations: [{ op: 'replace', path: '/name', value: 'SEO' }],
      } as never),
  ],
  ['deleteSnippet', 'snippet.delete', (c) => core.deleteSnippet(c.deps, { ...m(c), key: { codename: 'seo' } })],
  [
    'addItem',
    'item.create',
    async (c) => {
      const item = await core.addItem(c.deps, {
        ...m(c),
        body: { name: 'First', codename: 'first', type: { codename: 'article' } },
      });
      c.state['item'] = item.id;
    },
  ],
  [
    'upsertItem',
    'item.',
    (c) => core.upsertItem(c.deps, { ...m(c), key: { codename: 'first' }, body: { name: 'First!' } } as never),
  ],
  [
    'upsertVariant',
    'variant.create',
    (c) =>
      core.upsertVariant(c.deps, { ...v(c), body: { elements: [{ element: { codename: 'title' }, value: 'Hello' }] } }),
  ],
  ['publishVariant', 'variant.publish', (c) => core.publishVariant(c.deps, v(c))],
  ['createNewVersion', 'variant.', (c) => core.createNewVersion(c.deps, v(c))],
  ['deleteVariant', 'variant.delete', (c) => core.deleteVariant(c.deps, v(c))],
  ['deleteItem', 'item.delete', (c) => core.deleteItem(c.deps, { ...m(c), key: { codename: 'first' } })],
  [
    'deleteContentType',
    'content_type.delete',
    (c) => core.deleteContentType(c.deps, { ...m(c), key: { codename: 'article' } }),
  ],
];
