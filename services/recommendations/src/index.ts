export { buildRecommendationsApp, type RecommendationsAppOptions } from './app.ts';
export type { RecsEngine } from './http/routes.ts';
