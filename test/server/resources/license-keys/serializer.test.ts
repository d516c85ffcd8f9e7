// A license key's grant as the benefit_grant.* events carry it (the platform's
// BenefitGrantLicenseKeysWebhook): its id made from the key's, stable and in UUID form; the key in
// its properties masked, never the key itself. The platform's SDKs parse these payloads in
// test/server/webhooks/platform-sdks.test.ts.
import { describe, expect, it } from 'vitest';
import { grantIdOf } from '../../../../server/resources/license-keys/serializer.js';
import { startReferenceServer } from '../../../../server/index.js';

const UUID_V4_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('grantIdOf', () => {
  it('is a UUID in version 4 form, the same for the same key and another for another key', () => {
    const key = '6a1c1b54-0a5c-4a43-9d5e-4e3f0c1d2a11';
    expect(grantIdOf(key)).toMatch(UUID_V4_FORM);
    expect(grantIdOf(key)).toBe(grantIdOf(key));
    expect(grantIdOf('0b8a0f36-0d1c-4c39-9d3e-6b1f6a1e7c11')).not.toBe(grantIdOf(key));
    expect(grantIdOf(key)).not.toBe(key);
  });
});

describe('benefitGrantEventData (the data of benefit_grant.revoked)', () => {
  it('a revoked key: the grant revoked, its customer and benefit embedded, the key masked in its properties', async () => {
    const reference = await startReferenceServer({ port: 0, control: true });
    try {
      const customer = reference.control.createCustomer({ external_id: 'grant-serializer' });
      if (!customer.ok) throw new Error(customer.error.message);
      const granted = reference.control.grantLicenseKey({ customer_id: String(customer.value.id) });
      if (!granted.ok) throw new Error(granted.error.message);
      const deleted = await fetch(`${reference.url}/v1/customers/external/grant-serializer`, { method: 'DELETE', headers: { authorization: `Bearer ${reference.credentials.admin}` } });
      expect(deleted.status).toBeLessThan(300);
      const [event] = reference.control.events('benefit_grant.revoked').filter((e) => e.data.customer_id === customer.value.id);
      const data = event!.data as Record<string, any>;
      expect(data).toMatchObject({ id: grantIdOf(String(granted.value.id)), is_granted: false, is_revoked: true, customer_id: customer.value.id, subscription_id: null, order_id: null, member: null, previous_properties: null });
      expect(data.revoked_at).toEqual(expect.any(String));
      expect(data.customer.id).toBe(customer.value.id);
      expect(data.benefit).toMatchObject({ id: data.benefit_id, type: 'license_keys' });
      expect(data.properties).toEqual({ license_key_id: granted.value.id, display_key: `****-${String(granted.value.key).slice(-6)}` });
      expect(JSON.stringify(data)).not.toContain(String(granted.value.key));
    } finally {
      await reference.close();
    }
  });
});
