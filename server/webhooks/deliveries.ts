/**
 * The webhook delivery log: one entry per attempt to deliver an event to an endpoint, oldest
 * first, kept in the store's `deliveries` list (so that a reset clears it and `--state` keeps it).
 * @see docs/server-behaviour.md (Webhooks); docs/decisions.md ("The delivery log lives in the store")
 */
import type { WebhookDeliveryRecord } from '../records.js';
import type { Store } from '../store.js';

/**
 * One delivery attempt. Beyond the store's {@link WebhookDeliveryRecord}: `status` is the outcome
 * (`succeeded` for a 2xx answer, `failed` otherwise), `response_status` the HTTP status when the
 * endpoint answered, `error` why there was no 2xx answer (`HTTP 500`, `timeout after 10000 ms`,
 * a connection error code, or why it was not sent), `created_at` and `delivered_at` when the
 * attempt started and ended (stored timestamp format, the server's clock), `duration_ms` its
 * wall-clock length in milliseconds (the latency: from sending to the end of the endpoint's
 * answer), `response_body` the endpoint's answer (its first 2,048 bytes as text, `…` after them
 * when it was longer; null when it answered nothing or was not reached).
 */
export interface WebhookDeliveryAttempt extends WebhookDeliveryRecord {
  status: 'succeeded' | 'failed';
  event_type: string;
  url: string;
  /** Absent from attempts logged before the answer was kept (a state file of an earlier version). */
  response_body?: string | null;
  error: string | null;
  duration_ms: number;
  delivered_at: string;
}

/** Filters of {@link listDeliveries}; every given field must match. */
export interface DeliveryFilter {
  endpoint_id?: string;
  event_type?: string;
  event_id?: string;
}

/** The attempts of the delivery log that match `filter`, oldest first. */
export function listDeliveries(store: Store, filter: DeliveryFilter = {}): WebhookDeliveryAttempt[] {
  return (store.deliveries as unknown as WebhookDeliveryAttempt[]).filter(
    (attempt) =>
      (filter.endpoint_id === undefined || attempt.endpoint_id === filter.endpoint_id.toLowerCase()) &&
      (filter.event_type === undefined || attempt.event_type === filter.event_type) &&
      (filter.event_id === undefined || attempt.event_id === filter.event_id.toLowerCase()),
  );
}
