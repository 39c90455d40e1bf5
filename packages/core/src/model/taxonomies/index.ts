export { addTaxonomy, deleteTaxonomy, getTaxonomy, listTaxonomies, modifyTaxonomy } from './taxonomies.ts';
export {
  taxonomyJson,
  termKind,
  type TaxonomyBody,
  type TaxonomyRecord,
  type TaxonomyTermBody,
} from './taxonomy-terms.ts';
