/**
 * Starts the reference server on a socket: what `conformance serve` and the embedded target of
 * `conformance run` use.
 * @see shared/design.md, Command line (serve); Targets and configuration
 */
import type { AddressInfo } from 'node:net';
import { buildApp, type BuildAppOptions } from './app.js';
import type { DemoTokenName, ReferenceRole } from './auth.js';
import type { ReferenceControl } from './control.js';

export { buildApp, type BuildAppOptions, type ReferenceApp } from './app.js';
export type { ControlError, CreateOrderInput, ReferenceControl } from './control.js';
export { FAULTS, type FaultDefinition, type FaultId } from './faults.js';

/** Options of {@link startReferenceServer}. */
export interface StartOptions extends BuildAppOptions {
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
}

/** A listening reference server. */
export interface RunningReference {
  /** Base URL without a trailing slash (`http://127.0.0.1:4010`). */
  url: string;
  /** Bearer tokens of the harness roles: admin, reader, no_scope, other_org, customer_session, member_session. */
  credentials: Record<ReferenceRole, string>;
  /** Every demo token: the roles plus `pat` and `oidc` (a user member of organization A, every scope). */
  tokens: Record<DemoTokenName, string>;
  /**
   * Ids that exist, by name (organization_id, other_organization_id, product_id, benefit_id,
   * other_organization_benefit_id, subscription_id, customer_id, customer_external_id, order_id,
   * refund_id, file_id, webhook_endpoint_id, license_key_id, oauth_client_id, ...), and
   * oauth_client_secret, a secret that reports must not print.
   */
  fixtures: Record<string, string>;
  /** The faults switched on. */
  faults: string[];
  /** The control functions (the target adapter of the embedded reference); also served under `/__control/` unless `control: false`. */
  control: ReferenceControl;
  /** Stops listening and releases the port. */
  close(): Promise<void>;
}

/**
 * Builds and starts the reference server.
 * @throws HarnessError CNF_ERR_FAULT_UNKNOWN, CNF_ERR_SPEC_INVALID (see buildApp); the listen error (EADDRINUSE, ...) as thrown by Node
 */
export async function startReferenceServer(options: StartOptions = {}): Promise<RunningReference> {
  const { host = '127.0.0.1', port = 0, ...buildOptions } = options;
  const built = await buildApp(buildOptions);
  await built.app.listen({ host, port });
  const address = built.app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    credentials: built.credentials,
    tokens: built.tokens,
    fixtures: built.fixtures,
    faults: built.faults,
    control: built.control,
    close: () => built.app.close(),
  };
}

/**
 * The text `serve` prints: the URL, the demo token of every role and example curl commands.
 * Printing tokens is deliberate: they are demo tokens of an in-memory server, derived from the seed.
 */
export function printBanner(running: RunningReference): string {
  const width = Math.max(...Object.keys(running.tokens).map((name) => name.length));
  const lines = [
    `Reference server listening on ${running.url}`,
    ...(running.faults.length > 0 ? [`Faults switched on: ${running.faults.join(', ')}`] : []),
    '',
    'Demo tokens (Authorization: Bearer <token>):',
    ...Object.entries(running.tokens).map(([name, token]) => `  ${name.padEnd(width)}  ${token}`),
    '',
    'Fixtures:',
    ...Object.entries(running.fixtures).map(([name, id]) => `  ${name}: ${id}`),
    '',
    'Try:',
    `  curl -H "Authorization: Bearer ${running.credentials.admin}" "${running.url}/v1/products/?limit=5&sorting=name"`,
    `  curl -H "Authorization: Bearer ${running.credentials.admin}" "${running.url}/v1/subscriptions/?status=active&sorting=-started_at"`,
    `  curl -H "Authorization: Bearer ${running.credentials.reader}" "${running.url}/v1/products/?metadata%5Btier%5D=pro"`,
    `  curl -H "Authorization: Bearer ${running.credentials.customer_session}" "${running.url}/v1/customer-portal/license-keys/"`,
    `  curl -X POST "${running.url}/__control/authorization-codes"   # then POST /v1/oauth2/token with the oauth_client_* fixtures`,
    '',
  ];
  return lines.join('\n');
}
