import { useState, type FormEvent } from 'react';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { errorText } from '../ui/error-text.ts';
import { localZone, zonedToInstant, zoneNames } from './zoned-time.ts';

export interface ScheduleDialogProps {
  readonly isOpen: boolean;
  readonly onClose: () => void;
  readonly kind: 'publish' | 'unpublish';
  /** Sends `{scheduled_to, display_timezone}`. */
  readonly onSubmit: (body: { scheduled_to: string; display_timezone: string }) => Promise<void>;
}

function tomorrow(): string {
  const d = new Date(Date.now() + 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * "Schedule publish" / "Schedule unpublish": a date, a time and the time zone they are meant in
 * (the browser's by default). The instant goes as `scheduled_to`, the zone as `display_timezone`.
 */
export function ScheduleDialog({ isOpen, onClose, kind, onSubmit }: ScheduleDialogProps) {
  const [date, setDate] = useState(tomorrow);
  const [time, setTime] = useState('09:00');
  const [zone, setZone] = useState(localZone);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const title = kind === 'publish' ? 'Schedule publish' : 'Schedule unpublish';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setIsBusy(true);
    setError(null);
    try {
      await onSubmit({ scheduled_to: zonedToInstant(date, time, zone), display_timezone: zone });
      onClose();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <ModalDialog isOpen={isOpen} onClose={onClose} title={title} className="workflow-dialog">
      <form onSubmit={(e) => void submit(e)} className="workflow-form">
        <label>
          Date
          <input type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        </label>
        <label>
          Time
          <input type="time" required value={time} onChange={(e) => setTime(e.target.value)} />
        </label>
        <label>
          Time zone
          <select value={zone} onChange={(e) => setZone(e.target.value)}>
            {zoneNames(zone).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="submit" className="button button-primary" disabled={isBusy}>
            {kind === 'publish' ? 'Schedule' : 'Schedule unpublish'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
