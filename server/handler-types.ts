/**
 * The contract between the app and the handlers: a handler gets the authenticated principal and
 * the validated query, and returns a {@link Reply}; it never touches the HTTP layer.
 * @see shared/design.md, Reference server (handlers keyed by operationId)
 */
import type { ApiVersion } from '../spec/load.js';
import type { Principal } from './auth.js';
import type { FaultSet } from './faults.js';
import type { Reply } from './replies.js';
import type { Store } from './store.js';
import type { ParsedQuery } from './validation.js';

/** Everything a handler may use. */
export interface HandlerContext {
  store: Store;
  apiVersion: ApiVersion;
  /** The caller; undefined only for operations without security. */
  principal: Principal | undefined;
  query: ParsedQuery;
  /** Path parameters by name, as sent. */
  pathParams: Record<string, string>;
  faults: FaultSet;
  /** Increases by one on every request the app serves. */
  requestNumber: number;
}

/** The handler of one operation. */
export type OperationHandler = (ctx: HandlerContext) => Reply;
