import { describe, expect, it } from 'vitest';
import {
  assetActions,
  languageActions,
  taxonomyActions,
  type AssetShape,
  type TaxonomyShape,
} from './change-actions.ts';

/*
 * Expected actions from Kontent.ai's webhooks reference, "Webhook triggers and events" (Learn's
 * webhooks page: /work/shared/reference/fixtures/delivery/Kontent-ai-Learn+learn-mcp-server/data/
 * search-records.json, codename `webhooks_ea`; summarised in delivery-apis.md §4.1).
 */

const term = (id: string, terms: TaxonomyShape['terms'] = [], name = id) => ({ id, name, codename: id, terms });
const group = (terms: TaxonomyShape['terms'], name = 'Topics', codename = 'topics'): TaxonomyShape => ({
  name,
  codename,
  terms,
});

describe('taxonomyActions', () => {
  const before = group([term('a', [term('a1'), term('a2')]), term('b')]);

  it('names a new term term_created and a removed one term_deleted, without calling the siblings moved', () => {
    expect(taxonomyActions(before, group([term('a', [term('a1'), term('a2')]), term('c'), term('b')]))).toEqual([
      'term_created',
    ]);
    expect(taxonomyActions(before, group([term('a', [term('a2')]), term('b')]))).toEqual(['term_deleted']);
  });

  it('names a renamed term or a new term codename term_changed, a renamed group metadata_changed', () => {
    expect(taxonomyActions(before, group([term('a', [term('a1', [], 'A one'), term('a2')]), term('b')]))).toEqual([
      'term_changed',
    ]);
    expect(taxonomyActions(before, group(before.terms, 'Subjects'))).toEqual(['metadata_changed']);
    expect(taxonomyActions(before, group(before.terms, 'Topics', 'subjects'))).toEqual(['metadata_changed']);
  });

  it('names reordering and moving under another parent terms_moved', () => {
    expect(taxonomyActions(before, group([term('b'), term('a', [term('a1'), term('a2')])]))).toEqual(['terms_moved']);
    expect(taxonomyActions(before, group([term('a', [term('a2'), term('a1')]), term('b')]))).toEqual(['terms_moved']);
    expect(taxonomyActions(before, group([term('a', [term('a1')]), term('b', [term('a2')])]))).toEqual(['terms_moved']);
  });

  it('lists every action of a change that does several things, once each, and none for no change', () => {
    const after = group([term('b', [], 'B'), term('a', [term('a1'), term('x'), term('y')])], 'Subjects');
    expect(taxonomyActions(before, after)).toEqual([
      'metadata_changed',
      'term_created',
      'term_changed',
      'term_deleted',
      'terms_moved',
    ]);
    expect(taxonomyActions(before, before)).toEqual([]);
  });
});

describe('languageActions', () => {
  const lang = (isActive: boolean, name = 'German', fallback = 'zero') => ({
    codename: 'de',
    body: { name, is_active: isActive, fallback_language: { id: fallback } },
  });

  it('names activating created, deactivating deleted and renaming or a new fallback changed', () => {
    expect(languageActions(lang(false), lang(true))).toEqual(['created']);
    expect(languageActions(lang(true), lang(false))).toEqual(['deleted']);
    expect(languageActions(lang(true), lang(true, 'Deutsch'))).toEqual(['changed']);
    expect(languageActions(lang(true), lang(true, 'German', 'other'))).toEqual(['changed']);
    expect(languageActions(lang(true), { ...lang(true), codename: 'de-DE' })).toEqual(['changed']);
  });
});

describe('assetActions', () => {
  const asset: AssetShape = {
    fileId: 'f1',
    codename: 'logo',
    title: 'Logo',
    folderId: null,
    collectionId: null,
    descriptions: {},
    elements: [],
  };

  it('names a replaced file changed and a metadata edit metadata_changed', () => {
    expect(assetActions(asset, { ...asset, fileId: 'f2' })).toEqual(['changed']);
    expect(assetActions(asset, { ...asset, descriptions: { zero: 'Our logo' } })).toEqual(['metadata_changed']);
    expect(assetActions(asset, { ...asset, fileId: 'f2', codename: 'new_logo' })).toEqual([
      'changed',
      'metadata_changed',
    ]);
  });
});
