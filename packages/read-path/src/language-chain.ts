import { invalidQuery } from './invalid-query.ts';
import type { ReadScope } from './serve.ts';

/**
 * The languages to read, in order: the requested one (the default when none) and its fallbacks from
 * the project's localization settings, unless `isFallbackDisabled` (a `system.language` filter).
 */
export async function languageChain(
  scope: ReadScope,
  requested: string | null,
  isFallbackDisabled: boolean,
): Promise<string[]> {
  const languages = await scope.model.languages();
  if (languages.length === 0) return [requested ?? 'default'];
  const byCodename = new Map(languages.map((l) => [l.system.codename, l]));
  const start = requested ?? (languages.find((l) => l.isDefault) ?? languages[0])?.system.codename ?? 'default';
  let current = byCodename.get(start);
  if (current === undefined) throw invalidQuery(`The language '${start}' does not exist in this project.`);
  const chain = [start];
  while (!isFallbackDisabled && current?.fallbackCodename && !chain.includes(current.fallbackCodename)) {
    chain.push(current.fallbackCodename);
    current = byCodename.get(current.fallbackCodename);
  }
  return chain;
}
