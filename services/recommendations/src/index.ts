export { buildRecommendationsApp, type RecommendationsAppOptions } from './app.ts';
