import type { Check, Finding } from '../core/types.js';
import { successJson } from './response-objects.js';
import { answeredParts, isFileCreation } from './stateful/upload-parts.js';
import { answerDateMs, CLOCK_SKEW_MS, instantMicros } from './support.js';

/**
 * The upload links a file creation hands out are still valid when handed out: each part's
 * `expires_at` is a date-time later than the answer's `Date` (less {@link CLOCK_SKEW_MS} for the
 * header's whole seconds and the clocks' skew). An answer without a Date header cannot be judged.
 * @see spec/rules.yaml files.upload_link_lifetime ("upload.parts ... url, expires_at"); operation files:create
 */
export const uploadLinksUnexpired: Check = {
  id: 'upload_links_unexpired',
  title: 'An upload link has expired when it is handed out',
  severity: 'high',
  rule: 'files.upload_link_lifetime',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'state',
  level: 'must',
  needs: 'exchange',
  appliesTo: isFileCreation,
  run(_ctx, exchange) {
    const created = successJson(exchange);
    const at = answerDateMs(exchange);
    if (at === undefined || typeof created !== 'object' || created === null) return [];
    const findings: Finding[] = [];
    for (const part of answeredParts(created as Record<string, unknown>) ?? []) {
      const expires = instantMicros(part.expires_at);
      if (expires === undefined) {
        findings.push({ kind: 'upload_link_expiry_invalid', title: 'An upload part has no expires_at date-time', message: `Upload part ${JSON.stringify(part.number)} has expires_at ${JSON.stringify(part.expires_at)}, not an ISO 8601 date-time.`, expected: 'a date-time', actual: part.expires_at ?? null });
      } else if (expires / 1000 <= at - CLOCK_SKEW_MS) {
        findings.push({ kind: 'upload_link_already_expired', title: 'An upload link has expired when it is handed out', message: `Upload part ${JSON.stringify(part.number)} expires at ${String(part.expires_at)}, before the answer was given (${new Date(at).toISOString()} by its Date header, less ${CLOCK_SKEW_MS / 1000} s for clock skew).`, expected: `expires_at after ${new Date(at - CLOCK_SKEW_MS).toISOString()}`, actual: part.expires_at });
      }
    }
    return findings;
  },
};
