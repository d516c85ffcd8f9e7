// The orders family of model-based commands (engine/stateful/orders.ts) against the run's target.
import { ordersFamily } from '../../engine/stateful/orders.js';
import { defineFamilySuite } from '../../engine/stateful/model-suite.js';

await defineFamilySuite(ordersFamily);
