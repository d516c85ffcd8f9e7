/**
 * Handlers of the webhook endpoint operations.
 * @see operationId webhooks:list_endpoints
 */
import type { OperationHandler } from '../../handler-types.js';
import { listParamsOf, listRecords, serializedListReply, visibleOrganizations } from '../../listing.js';
import type { WebhookEndpointRecord } from '../../records.js';
import { serializeWebhookEndpoint } from './serializer.js';

/** `webhooks:list_endpoints`: a page of the caller's webhook endpoints, newest first (200 `{items, pagination}`). */
export const listWebhookEndpointsHandler: OperationHandler = (ctx) => {
  const params = listParamsOf(ctx.query);
  const page = listRecords<WebhookEndpointRecord>(
    {
      collection: ctx.store.webhookEndpoints,
      organizationIds: visibleOrganizations(ctx.principal?.organizationIds ?? [], ctx.query.values.organization_id as string[] | undefined),
      keys: { created_at: (endpoint) => endpoint.created_at },
      defaultSorting: [{ key: 'created_at', descending: true }],
      filter: undefined,
    },
    params,
    ctx.faults,
    ctx.requestNumber,
  );
  return serializedListReply(ctx.store, page.items, page.totalCount, params.limit, ctx.faults, (endpoint) => serializeWebhookEndpoint(ctx, endpoint), `webhook endpoints ${ctx.apiVersion}`);
};
