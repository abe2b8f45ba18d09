/** Why the event log refused to open or to append. The message says what to do. */
export class EventLogError extends Error {
  constructor(
    readonly code: 'locked' | 'newer-format' | 'read-only' | 'closed' | 'broken' | 'oversized-event' | 'not-a-log',
    message: string,
  ) {
    super(message);
    this.name = 'EventLogError';
  }
}
