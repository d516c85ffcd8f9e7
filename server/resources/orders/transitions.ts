/**
 * The transition table of an order (data only), and the events of its refunds: read by the reference's state machine
 * (./machine.ts) and by the harness's stateful suites and transition coverage
 * (engine/stateful/transitions.ts), which must not load the server's runtime to read it.
 * @see docs/design.md (Reference server: explicit transition tables per resource)
 */
import type { TransitionTable } from '../../machine.js';
import type { OrderStatus } from '../../records.js';

/** Transitions of an order. @see spec/rules.yaml orders.created_pending, orders.paid_transition_events (pending -> paid) */
export const ORDER_TRANSITIONS = {
  complete: { from: ['pending'], to: 'paid', events: ['order.updated', 'order.paid'] },
} as const satisfies TransitionTable<OrderStatus, 'complete'>;

/** A transition name of {@link ORDER_TRANSITIONS}. */
export type OrderTransition = keyof typeof ORDER_TRANSITIONS;

/**
 * Events of a refund of an order, partial or full, emitted with the order as it is after the
 * refund: order.updated (the API description's), then order.refunded. The status does not change,
 * so a refund is not a transition of {@link ORDER_TRANSITIONS}.
 * @see spec/rules.yaml orders.refund_emits_updated, events.order_updated
 */
export const ORDER_REFUND_EVENTS = ['order.updated', 'order.refunded'] as const;
