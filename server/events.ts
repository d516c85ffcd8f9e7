/**
 * The event log: every state change appends the API's events here, oldest first, each with the
 * resource as it was serialized at that moment. Webhook delivery and state persistence listen to
 * the log through {@link onEventAppended} and {@link onStoreChanged}, so that no resource needs to
 * know about either.
 * @see spec/rules.yaml events.order_created, events.order_updated, events.order_paid, events.checkout_created
 * @see docs/design.md (Reference server); docs/server-behaviour.md (Webhooks)
 */
import type { ApiVersion } from '../core/spec/load.js';
import { Collection } from './collection.js';
import type { FaultSet } from './faults.js';
import type { EventRecord } from './records.js';
import { newId, nowTimestamp, type Store } from './store.js';

/** What a state change needs: the store, the API version events are serialized in, and the faults. */
export interface MachineContext {
  store: Store;
  apiVersion: ApiVersion;
  faults: FaultSet;
}

/** Called with every event appended to a store's log, synchronously, right after it is appended. */
export type EventListener = (event: EventRecord) => void;

/** Called when a store may have changed (an event, a request that changes state, a delivery attempt, a control call). */
export type ChangeListener = () => void;

const eventListeners = new WeakMap<Store, Set<EventListener>>();
const changeListeners = new WeakMap<Store, Set<ChangeListener>>();

function subscribe<L>(registry: WeakMap<Store, Set<L>>, store: Store, listener: L): () => void {
  let listeners = registry.get(store);
  if (!listeners) {
    listeners = new Set();
    registry.set(store, listeners);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Listens to the events appended to one store's log (the webhook dispatcher). A listener must not
 * throw and must not block: it runs inside the request that caused the event.
 * @returns a function that removes the listener
 */
export function onEventAppended(store: Store, listener: EventListener): () => void {
  return subscribe(eventListeners, store, listener);
}

/**
 * Listens to "this store may have changed" notices (state persistence). The store has no change
 * tracking of its own, so notices come from the event log, from the HTTP layer after every request
 * that may change state, from the webhook delivery log and from the control functions.
 * @returns a function that removes the listener
 */
export function onStoreChanged(store: Store, listener: ChangeListener): () => void {
  return subscribe(changeListeners, store, listener);
}

/** Tells the listeners of {@link onStoreChanged} that `store` may have changed. */
export function notifyStoreChanged(store: Store): void {
  for (const listener of changeListeners.get(store) ?? []) listener();
}

/**
 * Appends an event to the store's log and tells the listeners.
 * @param type event kind (`order.paid`)
 * @param data the resource as serialized now
 * @returns the appended event
 */
export function emitEvent(store: Store, type: string, data: Record<string, unknown>): EventRecord {
  const event: EventRecord = { id: newId(store), type, timestamp: nowTimestamp(store), data };
  store.events.push(event);
  for (const listener of eventListeners.get(store) ?? []) listener(event);
  notifyStoreChanged(store);
  return event;
}

/** Records a payload embeds whose own organization_id says the event's (a benefit grant's customer and benefit). */
const EMBEDDED_WITH_ORGANIZATION = ['customer', 'benefit'] as const;

/**
 * The organization an event belongs to: `data.organization_id` when the payload carries it,
 * otherwise the organization of the record whose id is `data.id` in any collection of the store
 * (seats, subscriptions and files are serialized without one), otherwise that of a record the
 * payload embeds (a benefit grant, which has no record of its own: its customer's).
 * @returns the organization id, or undefined when none says
 */
export function eventOrganization(store: Store, event: EventRecord): string | undefined {
  const { organization_id: organizationId, id } = event.data;
  if (typeof organizationId === 'string') return organizationId;
  if (typeof id === 'string') {
    for (const value of Object.values(store)) {
      if (value instanceof Collection) {
        const record = value.get(id) as { organization_id?: unknown } | undefined;
        if (record && typeof record.organization_id === 'string') return record.organization_id;
      }
    }
  }
  for (const key of EMBEDDED_WITH_ORGANIZATION) {
    const embedded = event.data[key] as { organization_id?: unknown } | null | undefined;
    if (embedded && typeof embedded === 'object' && typeof embedded.organization_id === 'string') return embedded.organization_id;
  }
  return undefined;
}
