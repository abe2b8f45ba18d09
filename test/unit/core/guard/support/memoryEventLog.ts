/** An in-memory event log with the EventLogPort shape, for guard unit tests. */
import type { AppendInput, CanvasEvent, EventKind } from '../../../../../src/core/canvas/types';
import type { EventLogPort } from '../../../../../src/core/guard/approvals';

export class MemoryEventLog implements EventLogPort {
  readonly list: CanvasEvent[] = [];
  private readonly listeners = new Set<(e: CanvasEvent) => void>();

  constructor(events: CanvasEvent[] = []) {
    this.list.push(...events);
  }
  events() {
    return this.list;
  }
  subscribe(l: (e: CanvasEvent) => void) {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  }
  async append<K extends EventKind>(e: AppendInput<K>): Promise<CanvasEvent<K>> {
    const ev = { v: 1, seq: this.list.length + 1, ts: new Date().toISOString(), crc: '0', ...e } as unknown as CanvasEvent<K> & CanvasEvent;
    this.list.push(ev);
    for (const l of this.listeners) l(ev);
    return ev;
  }
}
