import type { RecoveryReport } from './types';

/** Why the event log refused to open or to append. The message says what to do. */
export class EventLogError extends Error {
  constructor(
    readonly code: 'locked' | 'newer-format' | 'read-only' | 'closed' | 'broken' | 'oversized-event' | 'not-a-log' | 'damaged',
    message: string,
    /** For 'damaged': what was found and where (backup '', nothing was cut). */
    readonly damage?: NonNullable<RecoveryReport['damage']>,
  ) {
    super(message);
    this.name = 'EventLogError';
  }
}
