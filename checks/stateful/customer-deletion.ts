/**
 * Judges the anonymization of a deleted customer: every personal field that held a value before
 * the deletion with anonymize=true holds another one (or none) after it.
 * @see spec/rules.yaml customers.delete_external.anonymize; operation customers:delete_external (anonymize); spec/openapi.yaml,
 *   schema Customer
 */
import type { Finding } from '../../core/types.js';

/**
 * The customer fields that are personal data (name, email and billing details).
 * @see spec/rules.yaml customers.delete_external.anonymize
 */
export const PERSONAL_FIELDS: readonly string[] = ['email', 'name', 'billing_name', 'billing_address', 'tax_id'];

function present(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

/**
 * Findings of `customer_deletion_anonymizes`.
 * @param before the customer as the API showed it before the deletion
 * @param after the same customer after `DELETE ...?anonymize=true`
 * @returns one finding per personal field that still holds its value (objects compared as JSON)
 */
export function anonymizationFindings(before: Record<string, unknown>, after: Record<string, unknown>, fields: readonly string[] = PERSONAL_FIELDS): Finding[] {
  const kept = fields.filter((field) => present(before[field]) && JSON.stringify(before[field]) === JSON.stringify(after[field]));
  if (kept.length === 0) return [];
  return [{
    kind: 'personal_data_kept',
    title: 'Personal data kept after an anonymizing deletion',
    message: `After DELETE with anonymize=true, customer ${String(after.id ?? before.id)} still shows the same ${kept.join(', ')}.`,
    expected: `${kept.join(', ')} replaced or removed`,
    actual: Object.fromEntries(kept.map((field) => [field, after[field]])),
  }];
}
