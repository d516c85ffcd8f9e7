// The anonymization judgement of the customer deletion scenario: every personal field replaced or
// removed passes, one kept fails with personal_data_kept.
import { describe, expect, test } from 'vitest';
import { anonymizationFindings } from '../../../checks/stateful/customer-deletion.js';
import { kinds } from './support.js';

describe('anonymizationFindings', () => {
  const before = { id: 'c1', email: 'ada@example.com', name: 'Ada', billing_name: null, billing_address: { country: 'FR' }, tax_id: null };
  test.each<[string, Record<string, unknown>, string[]]>([
    ['every personal field replaced or removed', { id: 'c1', email: 'x@anonymized.invalid', name: null, billing_name: null, billing_address: null, tax_id: null }, []],
    ['the email kept', { ...before, name: null, billing_address: null }, ['personal_data_kept']],
    ['the address kept (compared as JSON)', { ...before, email: 'x@y.invalid', name: null, billing_address: { country: 'FR' } }, ['personal_data_kept']],
    ['fields empty before are not judged', { id: 'c1', email: 'x@y.invalid', name: 'Someone', billing_name: null, billing_address: null, tax_id: null }, []],
  ])('%s', (_name, after, expected) => {
    expect(kinds(anonymizationFindings(before, after))).toEqual(expected);
  });
});
