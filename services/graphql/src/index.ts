export { buildGraphqlApp, type GraphqlAppOptions } from './app.ts';
export { graphqlDefaults, type GraphqlOptions } from './graphql-options.ts';
export { graphqlLimitSettings, graphqlOptions, graphqlSettings } from './settings.ts';
export { buildProjectSchema, SchemaCache, type ProjectSchema } from './schema/schema-cache.ts';
