import type { ElementProps } from './element-props.ts';

/** The wall-clock fields of an instant in a time zone. */
function partsIn(ms: number, zone: string): Record<string, number> {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const out: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** An ISO instant as the `datetime-local` text of its wall clock in `zone`. */
export function toLocalInput(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const p = partsIn(ms, zone);
  const seconds = p['second'] ? `:${pad(p['second'] ?? 0)}` : '';
  return `${pad(p['year'] ?? 0, 4)}-${pad(p['month'] ?? 0)}-${pad(p['day'] ?? 0)}T${pad(p['hour'] ?? 0)}:${pad(p['minute'] ?? 0)}${seconds}`;
}

/** The UTC instant (API form: `…Z`, no milliseconds) of a wall-clock time in `zone`. */
export function fromLocalInput(local: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, Number.isNaN(s) ? 0 : (s ?? 0));
  // The zone's offset at the guess, then once more at the corrected instant (DST edges).
  const offsetAt = (ms: number) => {
    const p = partsIn(ms, zone);
    return (
      Date.UTC(
        p['year'] ?? 0,
        (p['month'] ?? 1) - 1,
        p['day'] ?? 1,
        p['hour'] ?? 0,
        p['minute'] ?? 0,
        p['second'] ?? 0,
      ) - ms
    );
  };
  let ms = wall - offsetAt(wall);
  ms = wall - offsetAt(ms);
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** IANA zone names the browser knows, with `extra` (the stored one) kept when it is not listed. */
function zoneNames(extra: string | null): string[] {
  const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const out = ['UTC', ...names.filter((n) => n !== 'UTC')];
  if (extra && !out.includes(extra)) out.unshift(extra);
  return out;
}

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * A date and time element: the moment in the element's display time zone (`display_timezone`,
 * stored with the value; the browser's zone when none is set), and the zone to show it in.
 */
export function DateTimeElement({ value, onChange, isReadOnly, inputId, describedBy }: ElementProps) {
  const stored = typeof value.value === 'string' ? value.value : null;
  const zone = value.display_timezone ?? null;
  const shownZone = zone ?? browserZone();
  const zoneId = `${inputId}-zone`;
  return (
    <div className="element-date-time">
      <input
        id={inputId}
        className="element-input"
        type="datetime-local"
        step={1}
        value={stored ? toLocalInput(stored, shownZone) : ''}
        readOnly={isReadOnly}
        aria-describedby={describedBy}
        onChange={(e) => {
          if (e.target.value === '') onChange({ ...value, value: null });
          else {
            const iso = fromLocalInput(e.target.value, shownZone);
            if (iso) onChange({ ...value, value: iso });
          }
        }}
      />
      <label htmlFor={zoneId} className="element-sublabel">
        Time zone
      </label>
      <select
        id={zoneId}
        value={zone ?? ''}
        disabled={isReadOnly}
        onChange={(e) => onChange({ ...value, display_timezone: e.target.value === '' ? null : e.target.value })}
      >
        <option value="">Not set (your time zone, {browserZone()})</option>
        {zoneNames(zone).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}
