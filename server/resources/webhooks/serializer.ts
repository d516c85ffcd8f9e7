/**
 * Webhook endpoints as the API answers them, signing secret included.
 * @see spec/openapi.yaml, schema WebhookEndpoint
 */
import type { WebhookEndpointRecord } from '../../records.js';
import { renderNullableTimestamp as nullableTs, renderTimestamp as ts, type RenderContext } from '../../render.js';
import type { Json } from '../products/serializer.js';

/** A webhook endpoint. @see spec/openapi.yaml, schema WebhookEndpoint */
export function serializeWebhookEndpoint(ctx: RenderContext, endpoint: WebhookEndpointRecord): Json {
  return {
    created_at: ts(ctx, endpoint.created_at),
    modified_at: nullableTs(ctx, endpoint.modified_at),
    id: endpoint.id,
    url: endpoint.url,
    format: endpoint.format,
    secret: endpoint.secret,
    organization_id: endpoint.organization_id,
    events: [...endpoint.events],
    enabled: endpoint.enabled,
    name: endpoint.name,
  };
}
