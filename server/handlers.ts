/**
 * The one registry of operation handlers, keyed by operationId; routes come from the spec and
 * are bound here, and a unit test fails when an operation of the spec has no handler.
 * @see shared/design.md, Reference server
 */
import type { LoadedSpec } from '../spec/load.js';
import type { OperationHandler } from './handler-types.js';
import { listProductsHandler } from './resources/products/handlers.js';
import { listSubscriptionsHandler } from './resources/subscriptions/handlers.js';

/** Handlers by operationId. */
export const HANDLERS: Readonly<Record<string, OperationHandler>> = {
  'products:list': listProductsHandler,
  'subscriptions:list': listSubscriptionsHandler,
};

/** The operationIds of a spec that have no handler in {@link HANDLERS} (empty when the registry covers the spec). */
export function unhandledOperations(spec: LoadedSpec): string[] {
  return spec.operations.map((operation) => operation.operationId).filter((id) => !Object.hasOwn(HANDLERS, id));
}
