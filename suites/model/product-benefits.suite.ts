// The product-benefits family of model-based commands (engine/stateful/product-benefits.ts) against the run's target.
import { productBenefitsFamily } from '../../engine/stateful/product-benefits.js';
import { defineFamilySuite } from '../../engine/stateful/model-suite.js';

await defineFamilySuite(productBenefitsFamily);
