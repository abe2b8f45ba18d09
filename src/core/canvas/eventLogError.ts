import { DreamsError } from '../errors';
import type { RecoveryReport } from './types';

/** Why the event log refused to open or to append. The message says what to do. */
export class EventLogError extends DreamsError<
  'locked' | 'newer-format' | 'unknown-event' | 'read-only' | 'closed' | 'broken' | 'oversized-event' | 'not-a-log' | 'damaged'
> {
  constructor(
    code: EventLogError['code'],
    message: string,
    /** For 'damaged': what was found and where (backup '', nothing was cut). */
    readonly damage?: NonNullable<RecoveryReport['damage']>,
  ) {
    super(code, message);
    this.name = 'EventLogError';
  }
}
