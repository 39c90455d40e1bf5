import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/**
 * One row of a service's defaults table. `default` is written as it would be in the environment,
 * so the table reads like documentation (units belong in `doc`).
 */
export interface Setting<T> {
  readonly env: string;
  readonly schema: z.ZodType<T>;
  readonly default?: string;
  /** Secrets may come from `<env>_FILE` (a mounted file) and are never echoed in errors. */
  readonly isSecret?: boolean;
  readonly doc: string;
}

export type Settings = Record<string, Setting<unknown>>;
export type ConfigOf<S extends Settings> = { readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export interface LoadConfigOptions<S extends Settings> {
  readonly settings: S;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readFile?: (path: string) => string;
}

/**
 * Reads every setting from `env` (or `<NAME>_FILE`), applies defaults, validates all of them and
 * throws one ConfigError naming every problem. The result is frozen.
 */
export function loadConfig<S extends Settings>(options: LoadConfigOptions<S>): ConfigOf<S> {
  const readFile = options.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const problems: string[] = [];
  const result: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(options.settings)) {
    const raw = rawValue(setting, options.env, readFile, problems);
    if (raw === null) continue;
    const parsed = setting.schema.safeParse(raw);
    if (parsed.success) {
      result[key] = parsed.data;
    } else {
      const shown = setting.isSecret || raw === undefined ? '' : ` (got ${JSON.stringify(raw)})`;
      const why = parsed.error.issues.map((i) => i.message).join('; ');
      problems.push(`${setting.env}: ${why}${shown}. ${setting.doc}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(result) as ConfigOf<S>;
}

/** The raw string, `undefined` when unset without default, or `null` when reading failed (problem recorded). */
function rawValue(
  setting: Setting<unknown>,
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string,
  problems: string[],
): string | undefined | null {
  const direct = env[setting.env];
  const file = setting.isSecret ? env[`${setting.env}_FILE`] : undefined;
  if (direct !== undefined && file !== undefined) {
    problems.push(`${setting.env}: set either ${setting.env} or ${setting.env}_FILE, not both.`);
    return null;
  }
  if (file !== undefined) {
    try {
      return readFile(file).replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${setting.env}_FILE: cannot read ${file} (${(error as Error).message}).`);
      return null;
    }
  }
  return direct === undefined || direct === '' ? setting.default : direct;
}
