/**
 * Wall-clock time in an IANA time zone → the instant it names, with the browser's Intl data only.
 * "Schedule publish" sends the instant (`scheduled_to`, ISO-8601 UTC) and the zone it was chosen
 * in (`display_timezone`), as the Management API takes them.
 */

/** The zone's offset from UTC at `instant`, in milliseconds (positive east of Greenwich). */
export function zoneOffset(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant of `date` (YYYY-MM-DD) at `time` (HH:MM) in `zone`, as an ISO-8601 UTC string. */
export function zonedToInstant(date: string, time: string, zone: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0);
  // Two passes settle the offset across a daylight-saving change.
  let instant = wall - zoneOffset(wall, zone);
  instant = wall - zoneOffset(instant, zone);
  return new Date(instant).toISOString();
}

/** The browser's own zone (the default choice). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every zone the browser knows, the chosen one included. */
export function zoneNames(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  return all.includes(current) ? all : [current, ...all];
}

/** An instant shown in a zone, e.g. "27 Nov 2026, 14:30 (Europe/Prague)". */
export function formatInZone(iso: string, zone: string | null): string {
  const tz = zone ?? localZone();
  const text = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: tz }).format(
    new Date(iso),
  );
  return `${text} (${tz})`;
}
