import type { Check } from '../core/types.js';
import { documentsObject, listed, objectsIn, own, successJson } from './response-objects.js';
import { brief } from './support.js';

/**
 * A license key's display_key is a masked form of its key: it does not contain the whole key.
 * Judged where an object has both as strings and the key is not empty; how the mask looks is
 * not stated, so nothing else is asserted.
 * @see spec/rules.yaml license_keys.display_key_masked (key: secret value; display_key: masked form)
 */
export const licenseKeyDisplayKeyMasked: Check = {
  id: 'license_key_display_key_masked',
  title: 'Display key reveals the license key',
  severity: 'high',
  rule: 'license_keys.display_key_masked',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ operation }) => documentsObject(operation, (object) => object.has('key') && object.has('display_key')) || 'no key and display_key in its responses',
  run(_ctx, exchange) {
    const body = successJson(exchange);
    if (body === undefined) return [];
    const revealing: string[] = [];
    for (const place of objectsIn(body)) {
      const { object } = place;
      const key = own(object, 'key');
      const displayKey = own(object, 'display_key');
      if (typeof key === 'string' && key !== '' && typeof displayKey === 'string' && displayKey.includes(key)) {
        revealing.push(`${place.path || 'body'} (id ${brief(own(object, 'id'))})`);
      }
    }
    if (!revealing.length) return [];
    return [{
      kind: 'display_key_reveals_key',
      title: 'Display key reveals the license key',
      message: `display_key is a masked form of the key, but it contains the whole key in: ${listed(revealing)}.`,
      expected: 'a display_key that does not contain the key',
      actual: revealing.slice(0, 10),
    }];
  },
};
