// The product-benefits family of model-based commands (generators/commands/product-benefits.ts) against the run's target.
import { productBenefitsFamily } from '../../generators/commands/product-benefits.js';
import { defineFamilySuite } from './family.js';

await defineFamilySuite(productBenefitsFamily);
