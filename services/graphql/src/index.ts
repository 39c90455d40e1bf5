export { buildGraphqlApp, type GraphqlAppOptions } from './app.ts';
