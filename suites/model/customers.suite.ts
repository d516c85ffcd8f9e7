// The customers family of model-based commands (generators/commands/customers.ts) against the run's target.
import { customersFamily } from '../../generators/commands/customers.js';
import { defineFamilySuite } from './family.js';

await defineFamilySuite(customersFamily);
