/**
 * The check registry: every check by id, in the order reports show them.
 */
import type { Check } from '../core/types.js';
import { contentTypeConformance } from './content-type-conformance.js';
import { filterRespected } from './filter-respected.js';
import { insufficientScopeRejected } from './insufficient-scope-rejected.js';
import { invalidAuthRejected } from './invalid-auth-rejected.js';
import { missingAuthRejected } from './missing-auth-rejected.js';
import { negativeDataRejection } from './negative-data-rejection.js';
import { notAServerError } from './not-a-server-error.js';
import { pagesDisjointAndComplete } from './pages-disjoint-and-complete.js';
import { paginationDefaults } from './pagination-defaults.js';
import { paginationCountsConsistent } from './pagination-counts-consistent.js';
import { paginationLimitRespected } from './pagination-limit-respected.js';
import { positiveDataAcceptance } from './positive-data-acceptance.js';
import { rateLimitEnforced } from './rate-limit-enforced.js';
import { responseHeadersConformance } from './response-headers-conformance.js';
import { responseSchemaConformance } from './response-schema-conformance.js';
import { readScopeAccepted, writeScopeRequired } from './scope-matrix.js';
import { sortingRespected } from './sorting-respected.js';
import { statusCodeConformance } from './status-code-conformance.js';
import { tenantIsolation } from './tenant-isolation.js';
import { tenantIsolationLists } from './tenant-isolation-lists.js';
import { writeScopeAccepted } from './write-scope-accepted.js';
import { patTokenAccepted } from './pat-token-accepted.js';
import { memberSessionActsForCustomer } from './member-session-acts-for-customer.js';
import { notFoundErrorBody } from './not-found-error-body.js';
import { timestampPrecisionOfVersion } from './timestamp-precision-of-version.js';
import { versionFields } from './version-fields.js';
import { embeddedReferencesConsistent } from './embedded-references-consistent.js';
import { licenseKeyDisplayKeyMasked } from './license-key-display-key-masked.js';
import { paymentMethodsOfCustomer } from './payment-methods-of-customer.js';
import { productMeterIntervalCountNull } from './product-meter-interval-count-null.js';
import { productRecurringConsistent } from './product-recurring-consistent.js';
import { referencedProductNotDeletable } from './referenced-product-not-deletable.js';
import { subscriptionProductRecurring } from './subscription-product-recurring.js';
import { timestampsUtc } from './timestamps-utc.js';
import { writeEffectVisible } from './write-effect-visible.js';
import { introspectionTimesInSeconds } from './introspection-times-in-seconds.js';
import { orderFieldsConsistent } from './order-fields-consistent.js';
import { paginationTotalStable } from './pagination-total-stable.js';
import { recordReadStable } from './record-read-stable.js';
import { seatClaimAnswer } from './seat-claim-answer.js';
import { timestampsOrdered } from './timestamps-ordered.js';
import { tokenLifetimeMatchesIntrospection } from './token-lifetime-matches-introspection.js';
import { uploadLinksUnexpired } from './upload-links-unexpired.js';
import { uploadPartsMatchRequest } from './upload-parts-match-request.js';
import { writeAnswerReflectsRequest } from './write-answer-reflects-request.js';
import { writeReadConsistent } from './write-read-consistent.js';
import { inLayer } from './layers.js';


/**
 * Every check, in report order, each in its layer (checks/layers.ts): the bundled API's rules are
 * not applicable on a document that does not have them.
 */
export const CHECKS: readonly Check[] = [
  notAServerError,
  statusCodeConformance,
  contentTypeConformance,
  responseSchemaConformance,
  responseHeadersConformance,
  paginationLimitRespected,
  paginationCountsConsistent,
  paginationDefaults,
  paginationTotalStable,
  pagesDisjointAndComplete,
  sortingRespected,
  filterRespected,
  versionFields,
  timestampPrecisionOfVersion,
  timestampsUtc,
  timestampsOrdered,
  embeddedReferencesConsistent,
  productRecurringConsistent,
  productMeterIntervalCountNull,
  referencedProductNotDeletable,
  subscriptionProductRecurring,
  licenseKeyDisplayKeyMasked,
  paymentMethodsOfCustomer,
  orderFieldsConsistent,
  uploadPartsMatchRequest,
  uploadLinksUnexpired,
  seatClaimAnswer,
  introspectionTimesInSeconds,
  tokenLifetimeMatchesIntrospection,
  positiveDataAcceptance,
  writeEffectVisible,
  writeAnswerReflectsRequest,
  writeReadConsistent,
  recordReadStable,
  negativeDataRejection,
  notFoundErrorBody,
  missingAuthRejected,
  invalidAuthRejected,
  insufficientScopeRejected,
  readScopeAccepted,
  writeScopeRequired,
  writeScopeAccepted,
  patTokenAccepted,
  memberSessionActsForCustomer,
  tenantIsolation,
  tenantIsolationLists,
  rateLimitEnforced,
].map(inLayer);

/** Check ids, for option validation and the README's list. */
export const CHECK_IDS: readonly string[] = CHECKS.map((c) => c.id);

/** The checks of the bundled API's rules (`layer: 'api'`), by id: not applicable on a document without those rules. */
export const API_RULE_CHECKS: ReadonlySet<string> = new Set(CHECKS.filter((c) => c.layer === 'api').map((c) => c.id));

/**
 * The checks to run: all, or those named.
 * @param ids check ids; undefined or empty means every check
 * @returns the checks, in report order; unknown ids are returned in `unknown`
 */
export function selectChecks(ids?: readonly string[]): { checks: Check[]; unknown: string[] } {
  if (!ids || ids.length === 0) return { checks: [...CHECKS], unknown: [] };
  return { checks: CHECKS.filter((c) => ids.includes(c.id)), unknown: ids.filter((id) => !CHECK_IDS.includes(id)) };
}
