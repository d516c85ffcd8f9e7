// The customers family of model-based commands (engine/stateful/customers.ts) against the run's target.
import { customersFamily } from '../../engine/stateful/customers.js';
import { defineFamilySuite } from '../../engine/stateful/model-suite.js';

await defineFamilySuite(customersFamily);
