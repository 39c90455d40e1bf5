import { z } from 'zod';

/** A TCP port; 0 asks the OS for a free one. */
export const port = z.coerce.number().int().min(0).max(65535);

/** `true/false/1/0/yes/no/on/off`, case-insensitive. */
export const envBoolean = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']))
  .transform((s) => ['true', '1', 'yes', 'on'].includes(s));

/**
 * A whole number from `min` to `max`, such as a count, a size or a limit. Where 0 means "off",
 * the setting's doc says so.
 */
export function wholeNumber(bounds: { readonly min: number; readonly max: number }) {
  const range = `a whole number from ${bounds.min} to ${bounds.max}`;
  return z.coerce
    .number({ error: `expected ${range}` })
    .int({ error: `expected ${range}` })
    .min(bounds.min, { error: `expected ${range}` })
    .max(bounds.max, { error: `expected ${range}` });
}
