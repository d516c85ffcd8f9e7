// license_key_display_key_masked on hand-made exchanges: a passing case, failing ones with the
// exact finding kind, and a case it must not judge (an empty key); and its applicability.
import { describe } from 'vitest';
import { licenseKeyDisplayKeyMasked } from '../../checks/license-key-display-key-masked.js';
import { LICENSE_KEYS } from './bodies.js';
import { testApplicability, testExchangeCases, type ExchangeCase } from './cases.js';
import { list } from './fixtures.js';

// [name, check, operationId, exchange, expected kinds ([] = passes)]
const cases: ExchangeCase[] = [
  ['display key: masked passes', licenseKeyDisplayKeyMasked, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', key: 'ABCD-1234-EFGH-5678', display_key: '****-5678' }]) }, []],
  ['display key: the key itself fails', licenseKeyDisplayKeyMasked, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', key: 'ABCD-1234-EFGH-5678', display_key: 'ABCD-1234-EFGH-5678' }]) }, ['display_key_reveals_key']],
  ['display key: the key with a prefix fails', licenseKeyDisplayKeyMasked, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', key: 'ABCD-1234', display_key: 'key: ABCD-1234' }]) }, ['display_key_reveals_key']],
  ['display key: an empty key is not judged', licenseKeyDisplayKeyMasked, LICENSE_KEYS, { operationId: LICENSE_KEYS, body: list([{ id: 'k', key: '', display_key: '****' }]) }, []],
];

describe('license_key_display_key_masked', () => {
  testExchangeCases(cases, { applies: true });
});

describe('applicability', () => {
  testApplicability([
    [licenseKeyDisplayKeyMasked, 'subscriptions:list', 'no key and display_key in its responses'],
  ]);
});
