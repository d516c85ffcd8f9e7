/**
 * TypeScript types of the API's resources, generated from the OpenAPI documents by
 * openapi-typescript (spec/generated/, `npm run spec:types`). The aliases are those of the latest
 * version, 2026-10; `V2026_04` holds the earlier version's generated types.
 * @see spec/openapi.yaml, components.schemas (the resources and their fields)
 */
import type { components, operations, paths, webhooks } from './generated/openapi-2026-10.js';

/** The generated types of version 2026-10: `paths`, `webhooks`, `components` and `operations` (by operationId). */
export type { components, operations, paths, webhooks };
/** The generated types of version 2026-04 (`V2026_04.components['schemas']['Product']`). */
export type * as V2026_04 from './generated/openapi-2026-04.js';

type Schemas = components['schemas'];

/** A product as the product endpoints answer it (section Product). */
export type Product = Schemas['Product'];
/** Product fields common to every appearance of a product, such as the one embedded in a subscription. */
export type ProductBase = Schemas['ProductBase'];
/** A price, one variant per amount_type (section Price). */
export type Price = Schemas['Price'];
/** A benefit, one variant per type (section Benefit). */
export type Benefit = Schemas['Benefit'];
/** A product media file (section ProductMediaFile). */
export type ProductMediaFile = Schemas['ProductMediaFile'];
/** A custom field attached to a product (section AttachedCustomField and CustomField). */
export type AttachedCustomField = Schemas['AttachedCustomField'];
/** A custom field (section AttachedCustomField and CustomField). */
export type CustomField = Schemas['CustomField'];
/** A file as the files endpoints answer it, one variant per service (section File). */
export type File = Schemas['File'];
/** The answer of file creation: the file with its upload parts (section Create file body). */
export type FileUpload = Schemas['FileUpload'];
/** The body of file creation (section Create file body). */
export type FileCreate = Schemas['FileCreate'];
/** A customer (section Customer). */
export type Customer = Schemas['Customer'];
/** A customer's payment method (section Customer payment method). */
export type CustomerPaymentMethod = Schemas['CustomerPaymentMethod'];
/** A license key as the customer portal answers it (section License key). */
export type LicenseKey = Schemas['LicenseKey'];
/** A subscription (section Subscription). */
export type Subscription = Schemas['Subscription'];
/** The status of a subscription, one of eight (section States and transitions). */
export type SubscriptionStatus = Schemas['SubscriptionStatus'];
/** A discount embedded in a subscription (section Subscription). */
export type Discount = Schemas['Discount'];
/** A meter (section Subscription). */
export type Meter = Schemas['Meter'];
/** A subscription's meter (section Subscription). */
export type SubscriptionMeter = Schemas['SubscriptionMeter'];
/** An order, with the fields the change history names (section Order). */
export type Order = Schemas['Order'];
/** The status of an order, pending or paid (section States and transitions). */
/** A refund (section Refund). */
export type Refund = Schemas['Refund'];
/** A dispute embedded in a refund (section Refund). */
export type Dispute = Schemas['Dispute'];
/** A customer seat (section Customer seat). */
export type CustomerSeat = Schemas['CustomerSeat'];
/** A member of a customer (section Customer seat). */
export type Member = Schemas['Member'];
/** A webhook endpoint (section Webhook endpoint). */
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** The pagination object of a list (section Conventions). */
export type Pagination = Schemas['Pagination'];
/** The token endpoint's answer (section Authentication). */
export type TokenResponse = Schemas['TokenResponse'];
/** The introspection endpoint's answer (section Authentication). */
export type IntrospectResponse = Schemas['IntrospectResponse'];
/** An event delivered to webhook endpoints (section Events). */
export type Event = Schemas['Event'];
/** The 401 body (section Errors). */
export type UnauthorizedError = Schemas['Unauthorized'];
/** The 403 body (section Errors). */
export type NotPermittedError = Schemas['NotPermitted'];
/** The 404 body (section Errors). */
export type ResourceNotFoundError = Schemas['ResourceNotFound'];
/** The 422 body (section Errors). */
export type ValidationError = Schemas['HTTPValidationError'];
/** One entry of a 422 body's detail (section Errors). */
export type ValidationErrorEntry = Schemas['ValidationErrorEntry'];
