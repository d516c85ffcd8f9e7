/**
 * The resource families of the model-based suites, as data: the check id of each family's cell
 * (`model_orders`), the operation it is reported under, the rules it enforces and what it needs
 * from the target. Kept free of the commands themselves so that the CLI and `conformance run` can
 * select families without loading them.
 * @see ../../../shared/design.md, Targets and configuration (target adapter); style.md (fast-check)
 */
import type { AdapterCapability } from '../../core/adapter.js';
import type { Role, Severity } from '../../core/types.js';

/** A family's name (`orders`); its suite is `suites/model/<id>.suite.ts`, its commands `generators/commands/<id>.ts`. */
export type FamilyId = 'orders' | 'seats' | 'product-benefits' | 'customers' | 'files';

/** What a family of model-based commands is and needs. */
export interface FamilyInfo {
  id: FamilyId;
  /** The check id of its cell: `model_` and the id in snake_case; stable, never renamed. */
  checkId: string;
  title: string;
  severity: Severity;
  /** The rule its cell is listed under (each failure cites its own), an id of spec/rules.yaml. */
  rule: string;
  /** Every rule of spec/rules.yaml its commands judge. */
  enforces: string[];
  /** The operation its cell is reported under (the row of the matrix). */
  operationId: string;
  /** Adapter capabilities it cannot run without; capabilities that only some commands use are optional. */
  capabilities: AdapterCapability[];
  roles: Role[];
  fixtures: string[];
}

/** Every family, in report order. */
export const MODEL_FAMILIES: readonly FamilyInfo[] = [
  {
    id: 'orders',
    checkId: 'model_orders',
    title: 'Orders created, completed and refunded through the adapter, invoices generated and read, billing details changed, receipts, in any order',
    severity: 'high',
    rule: 'orders.invoice_generated_explicitly',
    enforces: ['orders.created_pending', 'orders.paid_flag', 'orders.paid_transition_events', 'orders.refund_emits_updated', 'orders.invoice_generated_explicitly', 'orders.billing_details_before_invoice', 'orders.receipt_presigned_url'],
    operationId: 'orders:generate_invoice',
    capabilities: ['createOrder', 'completeOrder'],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'seats',
    checkId: 'model_seats',
    title: 'Seat invitations claimed, claimed again, claimed after time passed, and the sessions of claims, in any order',
    severity: 'critical',
    rule: 'seats.invitation_single_use',
    enforces: ['seats.claim', 'seats.invitation_single_use', 'seats.invitation_expires'],
    operationId: 'customer_seats:claim',
    capabilities: ['createSeatInvitation'],
    roles: [],
    fixtures: [],
  },
  {
    id: 'product-benefits',
    checkId: 'model_product_benefits',
    title: "A product's benefits replaced by random sets (duplicates, a benefit of another organization) and read back",
    severity: 'high',
    rule: 'products.benefits_replaced',
    enforces: ['products.benefits_replaced', 'products.benefits_same_organization'],
    operationId: 'products:update_benefits',
    capabilities: [],
    roles: ['admin'],
    fixtures: ['product_id'],
  },
  {
    id: 'customers',
    checkId: 'model_customers',
    title: 'Customers deleted by external id (anonymized or not), deleted again, read back with their subscriptions',
    severity: 'critical',
    rule: 'customers.delete_external',
    enforces: ['customers.delete_external', 'customers.delete_external.cancels_subscriptions', 'customers.delete_external.anonymize'],
    operationId: 'customers:delete_external',
    capabilities: [],
    roles: ['admin'],
    fixtures: [],
  },
  {
    id: 'files',
    checkId: 'model_files',
    title: 'Files created in parts, parts uploaded with the right or the wrong bytes, files read back',
    severity: 'high',
    rule: 'files.upload_completes',
    enforces: ['files.upload_parts', 'files.not_uploaded_at_creation', 'files.upload_completes', 'files.part_checksum_verified'],
    operationId: 'files:create',
    capabilities: [],
    roles: ['admin'],
    fixtures: [],
  },
];

/** The check ids of the families, for `--checks`. */
export const MODEL_CHECK_IDS: readonly string[] = MODEL_FAMILIES.map((family) => family.checkId);

/**
 * The families a run selects: all, or those whose check id `checks` names (when it names any),
 * and whose operation `operations` names (when it names any).
 */
export function selectFamilies(checks?: readonly string[], operations?: readonly string[]): FamilyInfo[] {
  return MODEL_FAMILIES.filter((f) => (!checks?.length || checks.includes(f.checkId)) && (!operations?.length || operations.includes(f.operationId)));
}

/**
 * The family of an id.
 * @throws Error for an unknown id (a bug in a suite)
 */
export function familyInfo(id: FamilyId): FamilyInfo {
  const found = MODEL_FAMILIES.find((f) => f.id === id);
  if (!found) throw new Error(`no model family ${id}`);
  return found;
}
