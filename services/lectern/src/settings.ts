import { z } from 'zod';
import { envBoolean, port, sharedSettings, type Setting } from '@lectern/config';
import { serverSettings } from '@lectern/http-kit';
import { deliveryLimitSettings } from '@lectern/read-path';
import { graphqlLimitSettings } from '@lectern/graphql';
import { recsEmbeddingSettings } from '@lectern/recs-sql';
import { defaultPgliteSharedBuffersMib } from '@lectern/store-sql';
import {
  managementCompatibilitySettings,
  managementHistorySettings,
  managementImageSettings,
  managementLimitSettings,
  managementSsoSettings,
  auditSettings,
  managementUrlSettings,
  minOperatorTokenLength,
  operatorTokenSchema,
} from '@lectern/management';
import { webhookDeliverySettings, webhookMailSettings } from '@lectern/webhooks';

/**
 * One more port that serves every API, chosen by the Host header (`manage.`, `deliver.`,
 * `preview-deliver.`, `graphql.`, `recommend.`, and `assets.` for asset binaries, under one
 * domain), optionally over TLS.
 */
const hostRoutingSettings = {
  hostRoutingPort: {
    env: 'LECTERN_HOST_ROUTING_PORT',
    schema: port.optional(),
    doc: 'Also serve every API on this port, chosen by the Host name (manage., deliver., preview-deliver., graphql., recommend., assets.); unset: off, 0: a free port.',
  },
  tlsCertFile: {
    env: 'LECTERN_TLS_CERT_FILE',
    schema: z.string().min(1).optional(),
    doc: 'PEM certificate (chain) for the host-routing port; with LECTERN_TLS_KEY_FILE it speaks HTTPS.',
  },
  tlsKeyFile: {
    env: 'LECTERN_TLS_KEY_FILE',
    schema: z.string().min(1).optional(),
    doc: 'PEM private key of LECTERN_TLS_CERT_FILE.',
  },
} satisfies Record<string, Setting<unknown>>;

/**
 * The servers' limits and compatibility switches, the same names as the cluster services read;
 * each also a `start` flag.
 */
export const limitSettings = {
  ...hostRoutingSettings,
  ...serverSettings,
  ...deliveryLimitSettings,
  ...graphqlLimitSettings,
  ...managementLimitSettings,
  ...auditSettings,
  ...managementImageSettings,
  ...managementCompatibilitySettings,
  ...managementHistorySettings,
  ...managementUrlSettings,
  ...managementSsoSettings,
  ...webhookDeliverySettings,
  ...recsEmbeddingSettings,
} satisfies Record<
  string,
  Setting<unknown>
>;

/**
 * The defaults table of `lectern start` (and of the admin commands' store settings). Every value
 * comes from the environment or the matching command-line flag, which wins.
 */
export const startSettings = {
  /** Directory of the embedded database (PGlite) and of server.json. */
  dataDir: { env: 'LECTERN_DATA_DIR', schema: z.string().min(1), default: '.lectern-data', doc: 'Data directory.' },
  /** When set, PostgreSQL replaces the embedded database. */
  databaseUrl: {
    env: 'LECTERN_DATABASE_URL',
    schema: z.string().url().optional(),
    isSecret: true,
    doc: 'PostgreSQL URL, e.g. postgres://user:pass@127.0.0.1:5432/lectern; unset for the embedded database.',
  },
  /** PostgreSQL's buffer pool inside PGlite (WASM memory, kept for the life of the process). */
  pgliteBuffersMib: {
    env: 'LECTERN_PGLITE_SHARED_BUFFERS_MB',
    schema: z.coerce.number().int().min(16).max(2048),
    default: String(defaultPgliteSharedBuffersMib),
    doc:
      'Buffer pool of the embedded database in MiB. Raise it for large projects: vector search reads the ' +
      'recommendation index through it (about 5 MiB per 1,000 items; 100,000 items read fastest with 512).',
  },
  host: { env: 'LECTERN_HOST', schema: z.string().min(1), default: '127.0.0.1', doc: 'Address every listener binds.' },
  /**
   * Management listens on the base port; Delivery +1, Preview +2, GraphQL +3, Recommendations +4,
   * preview GraphQL +5 (when on), asset binaries +6. 0: free ports.
   */
  portBase: {
    env: 'LECTERN_PORT_BASE',
    schema: port,
    default: '4400',
    doc: 'First port: Management; Delivery +1, Preview +2, GraphQL +3, Recommendations +4, preview GraphQL +5, assets +6 (0 picks free ones).',
  },
  isDemo: {
    env: 'LECTERN_DEMO',
    schema: envBoolean,
    default: 'true',
    doc: 'Create a demo project on first start (true/false).',
  },
  /** Token of the admin API; generated at each start when unset. */
  operatorToken: {
    env: 'LECTERN_OPERATOR_TOKEN',
    schema: operatorTokenSchema.optional(),
    isSecret: true,
    doc: `At least ${minOperatorTokenLength} characters (e.g. \`openssl rand -hex 32\`); generated when unset.`,
  },
  logLevel: sharedSettings.logLevel,
  ...webhookMailSettings,
  ...limitSettings,
} satisfies Record<string, Setting<unknown>>;

/**
 * Listener order and port offsets from the base port. Preview GraphQL, when on, takes +5; the
 * assets origin (asset binaries, on a port of their own, never the console's) +6.
 */
export const listenerOffsets = {
  management: 0,
  delivery: 1,
  preview: 2,
  graphql: 3,
  recommendations: 4,
  assets: 6,
} as const;
export type ListenerName = keyof typeof listenerOffsets;
