import { z } from 'zod';

/** A TCP port; 0 asks the OS for a free one. */
export const port = z.coerce.number().int().min(0).max(65535);

/** `true/false/1/0/yes/no/on/off`, case-insensitive. */
export const envBoolean = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']))
  .transform((s) => ['true', '1', 'yes', 'on'].includes(s));
