// The fields derived for the platform's schemas: pure functions of the record (docs/platform.md).
import { describe, expect, it } from 'vitest';
import { derivedUuid, idNumber, taxIdTuple } from '../../../server/resources/platform-fields.js';

describe('taxIdTuple', () => {
  it.each([
    [null, null],
    [undefined, null],
    ['DE123456789', ['DE123456789', 'eu_vat']],
    ['US12-3456789', ['US12-3456789', 'us_ein']],
    ['GB123456789', ['GB123456789', 'gb_vat']],
    ['MN802813408', ['MN802813408', 'eu_vat']],
    [['AU51824753556', 'au_abn'], ['AU51824753556', 'au_abn']],
  ])('%j → %j', (stored, want) => {
    expect(taxIdTuple(stored)).toEqual(want);
  });
});

describe('derivedUuid', () => {
  it('is a version-4-shaped uuid, the same for the same seed and different for another', () => {
    const a = derivedUuid('slack:1');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedUuid('slack:1')).toBe(a);
    expect(derivedUuid('slack:2')).not.toBe(a);
  });
});

describe('idNumber', () => {
  it('reads the last 8 hex digits of an id', () => {
    expect(idNumber('00000000-0000-4000-8000-0000000000ff')).toBe(255);
    expect(idNumber('00000000-0000-4000-8000-00000000000a')).not.toBe(idNumber('00000000-0000-4000-8000-00000000000b'));
  });
});
