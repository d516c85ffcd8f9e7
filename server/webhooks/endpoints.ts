/**
 * Registering webhook endpoints and switching them on and off: the API description shows only the
 * list operation, so the harness registers its receiver through the control API, which calls these.
 * @see spec/openapi.yaml, schema WebhookEndpoint; spec/rules.yaml events.delivery_to_subscribed_endpoints
 */
import { randomBytes } from 'node:crypto';
import type { WebhookEndpointRecord } from '../records.js';
import { fail, ok, type Result } from '../result.js';
import { newId, nowTimestamp, type Store } from '../store.js';
import { isSigningSecret, SECRET_PREFIX } from './signature.js';

/** What {@link createWebhookEndpoint} needs. */
export interface WebhookEndpointInput {
  /** Default: the first demo organization (fixture organization_id). */
  organization_id?: string;
  /** Absolute http(s) URL the events are POSTed to. */
  url: string;
  /** Event kinds the endpoint subscribes to (`order.paid`, ...); may be empty. */
  events: string[];
  /** Default true. */
  enabled?: boolean;
  /** The signing secret the app is configured with: 1 to 256 characters, no whitespace (server/webhooks/signature.ts `isSigningSecret`); default a new random one. */
  secret?: string;
  /** Default null. */
  name?: string | null;
  /** A UUID; default a new id (a data file gives the id its app is configured with). */
  id?: string;
}

/** Why an endpoint could not be registered or changed: NOT_FOUND or INVALID (as the control API's {@link ControlError}). */
export interface EndpointError {
  code: 'NOT_FOUND' | 'INVALID';
  message: string;
}

/** Longest accepted URL, in characters. */
const MAX_URL_LENGTH = 2048;

/** A new signing secret shaped as the platform's: `whsec_` + 32 random bytes as a URL-safe base64 token (43 characters). */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * Registers a webhook endpoint (format `raw`).
 * @param defaultOrganizationId the organization when the input names none
 * @returns the stored endpoint, secret included; NOT_FOUND for an unknown organization; INVALID for a bad url, events, enabled, secret or name
 */
export function createWebhookEndpoint(store: Store, defaultOrganizationId: string, input: WebhookEndpointInput): Result<WebhookEndpointRecord, EndpointError> {
  const invalid = (message: string) => fail<EndpointError>({ code: 'INVALID', message });
  if (input === null || typeof input !== 'object') return invalid('The input must be an object.');
  const organizationId = (input.organization_id ?? defaultOrganizationId).toLowerCase();
  if (!store.organizations.get(organizationId)) return fail({ code: 'NOT_FOUND', message: `Organization ${organizationId} not found.` });
  if (typeof input.url !== 'string' || input.url.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(input.url) || !URL.canParse(input.url)) {
    return invalid('url must be an absolute http or https URL.');
  }
  if (!Array.isArray(input.events) || !input.events.every((type) => typeof type === 'string' && type.length > 0)) {
    return invalid('events must be an array of event kinds (strings).');
  }
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') return invalid('enabled must be a boolean.');
  if (input.secret !== undefined && !isSigningSecret(input.secret)) {
    return invalid('secret must be a string of 1 to 256 characters without whitespace.');
  }
  if (input.name !== undefined && input.name !== null && typeof input.name !== 'string') return invalid('name must be a string or null.');
  const id = input.id === undefined ? newId(store) : input.id.toLowerCase();
  if (store.webhookEndpoints.get(id)) return invalid(`Another webhook endpoint already has the id ${id}.`);
  const endpoint: WebhookEndpointRecord = {
    id,
    organization_id: organizationId,
    created_at: nowTimestamp(store),
    modified_at: null,
    url: input.url,
    format: 'raw',
    secret: input.secret ?? newSigningSecret(),
    events: [...new Set(input.events)],
    enabled: input.enabled ?? true,
    name: input.name ?? null,
  };
  return ok(store.webhookEndpoints.insert(endpoint));
}

/**
 * Enables or disables a webhook endpoint; a disabled endpoint receives no event, not even the
 * retries of earlier ones.
 * @returns the endpoint; NOT_FOUND; INVALID when `enabled` is not a boolean
 */
export function setWebhookEndpointEnabled(store: Store, id: string, enabled: boolean): Result<WebhookEndpointRecord, EndpointError> {
  if (typeof enabled !== 'boolean') return fail({ code: 'INVALID', message: 'enabled must be a boolean.' });
  const endpoint = typeof id === 'string' ? store.webhookEndpoints.get(id.toLowerCase()) : undefined;
  if (!endpoint) return fail({ code: 'NOT_FOUND', message: `Webhook endpoint ${String(id)} not found.` });
  if (endpoint.enabled !== enabled) store.webhookEndpoints.update(endpoint, { enabled, modified_at: nowTimestamp(store) });
  return ok(endpoint);
}
