/** The content model kinds Delivery serves or renders with: a change re-renders the project. */
export const deliveryModelKinds = [
  'language',
  'content_type',
  'snippet',
  'taxonomy',
  'collection',
  'workflow',
  'space',
] as const;

/**
 * The objects stored as documents, one kind per Management API resource: the content model, and
 * environment settings Delivery does not read (custom apps; `setting`: one document per singleton
 * setting such as the preview configuration, Web Spotlight and live preview; content validation
 * tasks with their results; the users invited to an environment; asset renditions).
 */
export const modelKinds = [
  ...deliveryModelKinds,
  'custom_app',
  'setting',
  'validation_task',
  'project_user',
  'rendition',
] as const;
export type ModelKind = (typeof modelKinds)[number];

/**
 * One stored content model object. `body` holds everything but the identifying columns, in the
 * resource's own document form (see each resource's module).
 */
export interface ModelRecord<B extends object = Record<string, unknown>> {
  readonly projectId: string;
  readonly kind: ModelKind;
  readonly id: string;
  readonly codename: string;
  readonly externalId: string | null;
  readonly body: B;
  readonly lastModified: Date;
}

/** How a stored object is looked up: by one of its three identifiers (SPEC 2.1). */
export type RecordKey = { readonly id: string } | { readonly codename: string } | { readonly externalId: string };
