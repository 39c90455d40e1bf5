import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout, one object per line. `silent` in tests. */
export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({ level: options.level ?? 'info', ...(options.name ? { name: options.name } : {}) });
}
