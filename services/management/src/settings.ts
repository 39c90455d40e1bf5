import { z } from 'zod';
import type { HistoryRetention } from '@lectern/core';
import { envBoolean, port, sharedSettings, wholeNumber, type ConfigOf, type Setting } from '@lectern/config';
import type { ManagementAppOptions } from './app.ts';
import { isProxyEntry, parseTrustedProxies } from './http/public-origin.ts';
import type { ImageLimits } from './images/image-cache.ts';
import { managementSsoSettings } from './sso-settings.ts';

/** Shortest operator token accepted: it signs in to every project, so it must not be guessable. */
export const minOperatorTokenLength = 32;

/** LECTERN_OPERATOR_TOKEN (lectern start and the Management service alike). */
export const operatorTokenSchema = z.string().min(minOperatorTokenLength, {
  error: `must be at least ${minOperatorTokenLength} characters; make one with \`openssl rand -hex 32\``,
});

const perKey = wholeNumber({ min: 0, max: 1_000_000_000 });

/** An absolute http(s) URL without query or fragment, optional. */
const publicUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//.test(u) && !u.includes('?') && !u.includes('#'), {
    message: 'must be an http or https URL without query or fragment',
  })
  .optional();

/**
 * The Management API's requests per key (SPEC 8), counted in the store so every server on one
 * database enforces one limit. `lectern start` and the cluster's Management service read the
 * same names. Over any window: 429 with Retry-After (error_code 10000).
 */
export const managementLimitSettings = {
  managementPerSecond: {
    env: 'LECTERN_MANAGEMENT_PER_SECOND',
    schema: perKey,
    default: '10',
    doc: 'Management API requests per key per second; 0: no limit.',
  },
  managementPerMinute: {
    env: 'LECTERN_MANAGEMENT_PER_MINUTE',
    schema: perKey,
    default: '400',
    doc: 'Management API requests per key per minute; 0: no limit.',
  },
  managementPerHour: {
    env: 'LECTERN_MANAGEMENT_PER_HOUR',
    schema: perKey,
    default: '15000',
    doc: 'Management API requests per key per hour; 0: no limit.',
  },
} satisfies Record<string, Setting<unknown>>;

/**
 * The audit log (issue 31). `LECTERN_AUDIT=false` writes no entries: only to measure what the log
 * costs (`pnpm run bench:governance-writes`); a deployment keeps it on.
 */
export const auditSettings = {
  isAuditOn: {
    env: 'LECTERN_AUDIT',
    schema: envBoolean,
    default: 'true',
    doc: 'Record every change in the audit log (true/false; false only to measure its cost).',
  },
  auditKeepDays: {
    env: 'LECTERN_AUDIT_KEEP_DAYS',
    schema: wholeNumber({ min: 1, max: 100_000 }).optional(),
    doc: 'Delete audit entries older than this many days (checked at start and daily); unset: keep everything.',
  },
} satisfies Record<string, Setting<unknown>>;

/**
 * Image transformation on asset URLs (issue 27, finding 5): anonymous requests, so each
 * project's cache of transformed images has a byte bound (least recently used evicted), new
 * transformations a rate, and sources and outputs a pixel limit. `lectern start` reads them too.
 */
export const managementImageSettings = {
  imageCacheMaxMbPerProject: {
    env: 'LECTERN_IMAGE_CACHE_MAX_MB_PER_PROJECT',
    schema: wholeNumber({ min: 1, max: 1_000_000 }),
    default: '256',
    doc: 'MiB of transformed images kept per project; the least recently used are evicted beyond it.',
  },
  imageTransformsPerSecond: {
    env: 'LECTERN_IMAGE_TRANSFORMS_PER_SECOND',
    schema: wholeNumber({ min: 0, max: 1_000_000 }),
    default: '10',
    doc: 'New image transformations (cache misses) per project per second, beyond: 429; cached images are never limited; 0: no limit.',
  },
  imageMaxMegapixels: {
    env: 'LECTERN_IMAGE_MAX_MEGAPIXELS',
    schema: wholeNumber({ min: 1, max: 268 }),
    default: '50',
    doc: 'Largest image transformed, source and output, in millions of pixels (width × height); larger: 400 IMAGE_TOO_LARGE.',
  },
} satisfies Record<string, Setting<unknown>>;

/** The image limits the settings describe. */
export function managementImageLimits(config: ConfigOf<typeof managementImageSettings>): ImageLimits {
  return {
    cacheBytesPerProject: config.imageCacheMaxMbPerProject * 1024 * 1024,
    transformsPerSecond: config.imageTransformsPerSecond,
    maxPixels: config.imageMaxMegapixels * 1_000_000,
  };
}

/**
 * Where SPEC and the current Kontent.ai reference differ, the spec is the default and the
 * reference is a setting (DESIGN). `lectern start` and the cluster's Management service read them.
 */
export const managementCompatibilitySettings = {
  managementAssetFileOptionalOnUpdate: {
    env: 'LECTERN_MANAGEMENT_ASSET_FILE_OPTIONAL_ON_UPDATE',
    schema: envBoolean,
    default: 'false',
    doc: 'true: PUT /assets/{id} may leave out file_reference to keep the file (Kontent.ai reference); false: required (SPEC 4.2).',
  },
} satisfies Record<string, Setting<unknown>>;

/**
 * Where clients reach the Management API, for the absolute URLs it answers (asset `url`s, paging
 * `next_page`): a fixed public URL, or the request's own scheme and host, which honour
 * `X-Forwarded-Proto` / `X-Forwarded-Host` from the trusted proxies only.
 */
export const managementUrlSettings = {
  trustedProxies: {
    env: 'LECTERN_TRUSTED_PROXIES',
    schema: z
      .string()
      .transform(parseTrustedProxies)
      .refine((list) => list.every(isProxyEntry), {
        message: 'each entry must be an IP address, an address/prefix (CIDR), loopback, linklocal or uniquelocal',
      }),
    default: '',
    doc: 'Comma-separated proxies whose X-Forwarded-Proto/-Host are believed (IPs, CIDRs, loopback, linklocal, uniquelocal); empty: none.',
  },
  managementPublicUrl: {
    env: 'LECTERN_MANAGEMENT_PUBLIC_URL',
    schema: publicUrl,
    doc: 'URL clients reach the Management API at, e.g. https://manage.example.com; unset: from each request.',
  },
  assetsPublicUrl: {
    env: 'LECTERN_ASSETS_PUBLIC_URL',
    schema: publicUrl,
    doc:
      "URL clients reach asset binaries at (their own origin, never the console's), e.g. https://assets.example.com; " +
      "unset: the manage. host relabelled assets., else the assets listener's own URL.",
  },
} satisfies Record<string, Setting<unknown>>;

/** The per-key rate limits the settings describe; 0 (off) becomes a window nothing exceeds. */
export function managementRateLimits(
  config: ConfigOf<typeof managementLimitSettings>,
): NonNullable<ManagementAppOptions['rateLimits']> {
  const max = (n: number) => (n === 0 ? Number.POSITIVE_INFINITY : n);
  return {
    perSecond: max(config.managementPerSecond),
    perMinute: max(config.managementPerMinute),
    perHour: max(config.managementPerHour),
  };
}

/**
 * The version history's retention (issue 31), applied every 10 minutes by the scheduler of each
 * process: versions older than the days or beyond the newest count go (the newest version and
 * the published one always stay). 0: that rule is off; both 0 (the default): everything is kept.
 */
export const managementHistorySettings = {
  historyKeepDays: {
    env: 'LECTERN_HISTORY_KEEP_DAYS',
    schema: wholeNumber({ min: 0, max: 36_500 }),
    default: '0',
    doc: 'Days a variant version is kept in the version history; 0: no age limit.',
  },
  historyKeepVersions: {
    env: 'LECTERN_HISTORY_KEEP_VERSIONS',
    schema: wholeNumber({ min: 0, max: 1_000_000 }),
    default: '0',
    doc: 'Versions kept per variant in the version history (the newest and the published always stay); 0: no count limit.',
  },
} satisfies Record<string, Setting<unknown>>;

/** The history retention the settings describe (0 turns a rule off). */
export function historyRetention(config: ConfigOf<typeof managementHistorySettings>): HistoryRetention {
  return {
    keepDays: config.historyKeepDays === 0 ? null : config.historyKeepDays,
    keepVersions: config.historyKeepVersions === 0 ? null : config.historyKeepVersions,
  };
}

/** Where people's password reset e-mails go out (the same settings as the webhooks' e-mails). */
export const managementMailSettings = {
  smtpUrl: sharedSettings.smtpUrl,
  smtpFrom: sharedSettings.smtpFrom,
} satisfies Record<string, Setting<unknown>>;

/**
 * The defaults table of the Management service in the cluster shape (environment only; secrets
 * also as `<NAME>_FILE`).
 */
export const managementSettings = {
  databaseUrl: sharedSettings.databaseUrl,
  s3Endpoint: {
    env: 'LECTERN_S3_ENDPOINT',
    schema: z.string().url(),
    doc: 'Base URL of the S3 API, e.g. http://minio:9000 or https://s3.eu-west-1.amazonaws.com.',
  },
  s3Region: { env: 'LECTERN_S3_REGION', schema: z.string().min(1), default: 'us-east-1', doc: 'S3 region.' },
  s3Bucket: {
    env: 'LECTERN_S3_BUCKET',
    schema: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'not a valid bucket name'),
    default: 'lectern-assets',
    doc: 'Bucket of asset binaries (created when missing).',
  },
  s3AccessKey: { env: 'LECTERN_S3_ACCESS_KEY', schema: z.string().min(1), isSecret: true, doc: 'S3 access key.' },
  s3SecretKey: { env: 'LECTERN_S3_SECRET_KEY', schema: z.string().min(1), isSecret: true, doc: 'S3 secret key.' },
  kafkaBrokers: sharedSettings.kafkaBrokers,
  kafkaTopic: sharedSettings.kafkaTopic,
  host: sharedSettings.host,
  port: { env: 'LECTERN_PORT', schema: port, default: '4400', doc: 'Port of the Management API (0: a free one).' },
  assetsPort: {
    env: 'LECTERN_ASSETS_PORT',
    schema: port,
    default: '4410',
    doc: 'Port of the assets origin: asset binaries, /healthz, /readyz, /metrics (0: a free one).',
  },
  operatorToken: {
    env: 'LECTERN_OPERATOR_TOKEN',
    schema: operatorTokenSchema,
    isSecret: true,
    doc: `Token of the admin API (/admin) and the console, at least ${minOperatorTokenLength} characters (e.g. \`openssl rand -hex 32\`).`,
  },
  ...managementLimitSettings,
  ...auditSettings,
  ...managementImageSettings,
  ...managementCompatibilitySettings,
  ...managementUrlSettings,
  ...managementMailSettings,
  ...managementSsoSettings,
  ...managementHistorySettings,
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;

/** The settings of the `migrate` entry (`node services/management/src/migrate.ts`). */
export const migrateSettings = {
  databaseUrl: sharedSettings.databaseUrl,
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;
