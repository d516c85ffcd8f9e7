/**
 * The contract between the app and the handlers: a handler gets the authenticated principal and
 * the validated path, query and body, and returns a {@link Reply}; it never touches the HTTP layer.
 * @see docs/design.md (Reference server: handlers keyed by operationId)
 */
import type { Principal } from './auth.js';
import type { MachineContext } from './events.js';
import type { ServerKeys } from './keys.js';
import type { Reply } from './replies.js';
import type { ParsedQuery } from './validation.js';

/** Everything a handler may use; it is also the context of state changes and serializers. */
export interface HandlerContext extends MachineContext {
  /** The caller; undefined only for operations without security. */
  principal: Principal | undefined;
  query: ParsedQuery;
  /** Path parameters by name, validated (uuids lower-cased). */
  pathParams: Record<string, string>;
  /** The validated JSON body, or the fields of a form-encoded body; undefined when the operation takes none. */
  body: unknown;
  /** Increases by one on every request the app serves. */
  requestNumber: number;
  /** The reference's own base URL as the client reached it (`http://127.0.0.1:4010`), for URLs it serves itself. */
  baseUrl: string;
  keys: ServerKeys;
}

/** The handler of one operation; may be async (signing an ID token is). */
export type OperationHandler = (ctx: HandlerContext) => Reply | Promise<Reply>;
