// The orders family of model-based commands (generators/commands/orders.ts) against the run's target.
import { ordersFamily } from '../../generators/commands/orders.js';
import { defineFamilySuite } from './family.js';

await defineFamilySuite(ordersFamily);
