/**
 * The event log: every state change appends the API's events here, oldest first, each with the
 * resource as it was serialized at that moment. Webhook delivery reads this log.
 * @see shared/api-description.md, Events; shared/design.md, Events and webhooks
 */
import type { ApiVersion } from '../spec/load.js';
import type { FaultSet } from './faults.js';
import { newId, nowTimestamp, type EventRecord, type Store } from './store.js';

/** What a state change needs: the store, the API version events are serialized in, and the faults. */
export interface MachineContext {
  store: Store;
  apiVersion: ApiVersion;
  faults: FaultSet;
}

/**
 * Appends an event to the store's log.
 * @param type event kind (`order.paid`)
 * @param data the resource as serialized now
 * @returns the appended event
 */
export function emitEvent(store: Store, type: string, data: Record<string, unknown>): EventRecord {
  const event: EventRecord = { id: newId(store), type, timestamp: nowTimestamp(store), data };
  store.events.push(event);
  return event;
}
