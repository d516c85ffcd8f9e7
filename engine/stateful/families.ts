/**
 * Every family of model-based commands by id, for the runners that take any of them (the
 * differential mode); the suites import their own family directly.
 */
import { customersFamily } from './customers.js';
import type { Family } from './family.js';
import { filesFamily } from './files.js';
import type { FamilyId } from './registry.js';
import { ordersFamily } from './orders.js';
import { productBenefitsFamily } from './product-benefits.js';
import { seatsFamily } from './seats.js';

/** The families, in the order of MODEL_FAMILIES. */
export const FAMILIES: Readonly<Record<FamilyId, Family<object>>> = {
  orders: ordersFamily as Family<object>,
  seats: seatsFamily as Family<object>,
  'product-benefits': productBenefitsFamily as Family<object>,
  customers: customersFamily as Family<object>,
  files: filesFamily as Family<object>,
};
