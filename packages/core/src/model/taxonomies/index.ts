export { addTaxonomy, deleteTaxonomy, getTaxonomy, listTaxonomies, modifyTaxonomy } from './taxonomies.ts';
export {
  taxonomyJson,
  termKind,
  type TaxonomyBody,
  type TaxonomyRecord,
  type TaxonomyTermBody,
  type TaxonomyTermJson,
} from './taxonomy-terms.ts';
