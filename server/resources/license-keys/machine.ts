/**
 * The license key state machine: a key is granted by a license_keys benefit and revoked when the
 * benefit is (for example when its customer is deleted). Revoking emits benefit_grant.revoked.
 * @see spec/openapi.yaml, schema LicenseKey; spec/rules.yaml customers.delete_external.revokes_benefits
 */
import { emitEvent, type MachineContext } from '../../events.js';
import { planTransition, type TransitionRefused } from '../../machine.js';
import type { LicenseKeyRecord, LicenseKeyStatus } from '../../records.js';
import { fail, ok, type Result } from '../../result.js';
import { nowTimestamp } from '../../store.js';
import { benefitGrantEventData } from './serializer.js';
import { LICENSE_KEY_TRANSITIONS, type LicenseKeyTransition } from './transitions.js';

export { LICENSE_KEY_TRANSITIONS, type LicenseKeyTransition };

/**
 * Fires a license key transition and emits its events (data: the grant, as the platform sends it:
 * ./serializer.ts `benefitGrantEventData`).
 * @returns the key, or the refusal when its status does not allow the transition
 */
export function fireLicenseKeyTransition(ctx: MachineContext, licenseKey: LicenseKeyRecord, name: LicenseKeyTransition): Result<LicenseKeyRecord, TransitionRefused<LicenseKeyStatus>> {
  const planned = planTransition<LicenseKeyStatus, LicenseKeyTransition>(LICENSE_KEY_TRANSITIONS, name, licenseKey.status);
  if (!planned.ok) return fail(planned.error);
  const at = nowTimestamp(ctx.store);
  // Through the collection, like every stored change, so that its indexes and the change counter follow.
  ctx.store.licenseKeys.update(licenseKey, { status: planned.value.to, modified_at: at });
  for (const type of planned.value.events) emitEvent(ctx.store, type, benefitGrantEventData(ctx, licenseKey));
  return ok(licenseKey);
}
