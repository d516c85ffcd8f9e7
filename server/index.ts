/**
 * Starts the reference server on a socket: what `conformance serve` and the embedded target of
 * `conformance run` use.
 * @see docs/design.md (Command line: serve; Targets, roles and verdicts)
 */
import type { Server as HttpServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { buildApp, type BuildAppOptions, type ServerSettings } from './app.js';
import type { DemoTokenName, ReferenceRole } from './auth.js';
import type { ReferenceControl } from './control.js';
import { markLocalClient } from './rate-limit.js';
import type { WebhookDispatcher } from './webhooks/dispatcher.js';

export { buildApp, type BuildAppOptions, type ReferenceApp, type ServerSettings } from './app.js';
export type { ControlError, CreateOrderInput, DataLoadRefusal, DataLoadSummary, ReferenceControl } from './control.js';
export type { DataProblem, DataText } from './data/read.js';
export type { ClockSubscriptionInput } from './clock/lifecycle.js';
export { FAULTS, type FaultDefinition, type FaultId } from './faults.js';
export type { RateLimitOption, RateLimitSettings } from './rate-limit.js';
export type { WebhookDeliveryAttempt } from './webhooks/deliveries.js';
export type { WebhookDeliveryOptions } from './webhooks/dispatcher.js';
export type { WebhookEndpointInput } from './webhooks/endpoints.js';

/**
 * Options of {@link startReferenceServer}: those of {@link BuildAppOptions} (`rateLimit`, default
 * 100 per second; `control`; `stateFile`; `webhooks`; ...) and where to listen.
 */
export interface StartOptions extends BuildAppOptions {
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /**
   * A local socket to accept connections on as well, for the process that starts the server: a
   * Unix domain socket's path (on Windows a named pipe, `\\.\pipe\name`). Its connections are
   * answered by the same HTTP server as those of `host` and `port`, skip the TCP stack, and are
   * never counted by the rate limit (server/rate-limit.ts `markLocalClient`). The embedded target
   * of `conformance run` uses one (docs/decisions.md, Harness: "The embedded reference is reached
   * over a local socket"). When the socket cannot be made (a path too long, a folder that does not
   * exist), the server listens on TCP only and {@link RunningReference.socketPath} is absent.
   */
  socketPath?: string;
}

/** A listening reference server. */
export interface RunningReference {
  /** Base URL without a trailing slash (`http://127.0.0.1:4010`). */
  url: string;
  /** The local socket the server accepts connections on as well, when one was asked for and could be made ({@link StartOptions.socketPath}). */
  socketPath?: string;
  /**
   * Bearer tokens of the harness roles: admin, reader, writer (every write scope, no read scope),
   * no_scope, other_org, pat (a personal access token of a member of organization A, every scope),
   * customer_session, member_session (a member of the customer_session's customer), portal_no_scope
   * (a customer session of that customer without any scope).
   */
  credentials: Record<ReferenceRole, string>;
  /** Every demo token: the roles plus `oidc` (a user member of organization A, every scope). */
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
  /** Webhook delivery (`idle()` waits until deliveries settle). */
  webhooks: WebhookDispatcher;
  /** Rate limit, control API and state file as in force. */
  settings: ServerSettings;
  /** Stops listening, stops webhook delivery, commits the last changes to the state file and releases its lock (with `stateFile`) and the port. */
  close(): Promise<void>;
}

/**
 * Builds and starts the reference server.
 * @throws HarnessError CNF_ERR_FAULT_UNKNOWN, CNF_ERR_SPEC_INVALID (see buildApp); the listen error (EADDRINUSE, ...) as thrown by Node
 */
export async function startReferenceServer(options: StartOptions = {}): Promise<RunningReference> {
  const { host = '127.0.0.1', port = 0, socketPath, ...buildOptions } = options;
  const built = await buildApp(buildOptions);
  try {
    await built.app.listen({ host, port });
  } catch (error) {
    // Closing releases what the build took (the state file's lock, webhook delivery).
    await built.app.close().catch(() => undefined);
    throw error;
  }
  const local = socketPath === undefined ? undefined : await listenLocal(built.app.server, socketPath);
  const address = built.app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    ...(local ? { socketPath } : {}),
    credentials: built.credentials,
    tokens: built.tokens,
    fixtures: built.fixtures,
    faults: built.faults,
    control: built.control,
    webhooks: built.webhooks,
    settings: built.settings,
    close: async () => {
      // The local server stops accepting at once; its connections belong to the HTTP server, which
      // Fastify's close ends (idle ones at once, the others once answered).
      const localClosed = local ? new Promise<void>((resolve) => local.close(() => resolve())) : undefined;
      await built.app.close();
      await localClosed;
    },
  };
}

/**
 * Accepts connections on `socketPath` and hands each to `server`, marked as the local client.
 * @returns the listening local server, or undefined when the socket cannot be made (the error is
 *   not thrown: the server is then reached over TCP only)
 */
async function listenLocal(server: HttpServer, socketPath: string): Promise<net.Server | undefined> {
  const local = net.createServer((socket) => {
    markLocalClient(socket);
    // How a connection is handed to an HTTP server (Node's http.Server, event 'connection').
    server.emit('connection', socket);
  });
  return await new Promise((resolve) => {
    local.once('error', () => resolve(undefined));
    local.listen(socketPath, () => resolve(local));
  });
}

/** One line per setting of `serve` that a developer may want to know is on or off. */
function settingLines(running: RunningReference): string[] {
  const { rateLimit, controlApi, state } = running.settings;
  const rate = rateLimit === false
    ? 'off'
    : `${rateLimit.max} requests per ${rateLimit.windowMs === 1000 ? 'second' : `${rateLimit.windowMs} ms`} per IP (429 with Retry-After beyond)`;
  return [
    `Rate limit: ${running.faults.includes('rate_limit_ignored') ? 'off (fault rate_limit_ignored)' : rate}`,
    `Control API: ${controlApi ? `on (${running.url}/__control/)` : 'off'}`,
    `State file: ${state === null ? 'none (in memory only)' : `${state.file} (${state.loaded ? 'loaded' : `new, ${running.settings.data ? 'the data file\'s records' : 'demo data'} written`}; every change fsynced before its answer, locked for this server)`}`,
    ...dataLines(running),
  ];
}

/** Example requests on the demo store. */
function demoTries(running: RunningReference): string[] {
  return [
    `  curl -H "Authorization: Bearer ${running.credentials.admin}" "${running.url}/v1/products/?limit=5&sorting=name"`,
    `  curl -H "Authorization: Bearer ${running.credentials.admin}" "${running.url}/v1/subscriptions/?status=active&sorting=-started_at"`,
    `  curl -H "Authorization: Bearer ${running.credentials.reader}" "${running.url}/v1/products/?metadata%5Btier%5D=pro"`,
    `  curl -H "Authorization: Bearer ${running.credentials.customer_session}" "${running.url}/v1/customer-portal/license-keys/"`,
    ...(running.settings.controlApi
      ? [`  curl -X POST "${running.url}/__control/authorization-codes"   # then POST /v1/oauth2/token with the oauth_client_* fixtures`]
      : []),
  ];
}

/** Example requests on a data file's store, with its first token. */
function dataTries(running: RunningReference, token: string): string[] {
  return [
    `  curl -H "Authorization: Bearer ${token}" "${running.url}/v1/products/?sorting=name"`,
    `  curl -H "Authorization: Bearer ${token}" "${running.url}/v1/subscriptions/?sorting=-started_at"`,
    ...(running.settings.controlApi
      ? [`  curl -X POST -H "content-type: application/json" -d '{"ms": 86400000}' "${running.url}/__control/clock/advance"   # a day later: renewals due meanwhile happen`]
      : []),
  ];
}

/** What the store holds: the data file's records (or why it was not read), or the demo store. */
function dataLines(running: RunningReference): string[] {
  const { data, state } = running.settings;
  if (data === null) return ['Data: the demo store (--data FILE for your own catalogue: docs/data-file.md)'];
  if (!data.loaded) return [`Data file: ${data.source} not read: the state file ${state?.file ?? ''} exists and holds the store (delete it to load the data file again; a reset loads the data file)`];
  const counts = Object.entries(data.counts ?? {}).filter(([kind, n]) => kind !== 'tokens' && n > 0).map(([kind, n]) => `${n} ${n === 1 ? kind.replace(/s$/, '').replace(/_/g, ' ') : kind.replace(/_/g, ' ')}`);
  return [`Data file: ${data.source} (${counts.join(', ')})`];
}

/**
 * The text `serve` prints: the URL, the demo token of every role and example curl commands.
 * Printing tokens is deliberate: they are demo tokens of an in-memory server, derived from the seed.
 */
export function printBanner(running: RunningReference): string {
  const width = Math.max(...Object.keys(running.tokens).map((name) => name.length));
  const fileTokens = running.settings.data?.tokens ?? [];
  const lines = [
    `Reference server listening on ${running.url}`,
    ...(running.faults.length > 0 ? [`Faults switched on: ${running.faults.join(', ')}`] : []),
    ...settingLines(running),
    ...(running.settings.controlApi ? [`Dashboard: ${running.url}/__dashboard/ (the store, the event log and webhook deliveries, live; advance the clock)`] : []),
    '',
    ...(fileTokens.length > 0
      ? ['Tokens of the data file (Authorization: Bearer <token>):', ...fileTokens.map(({ organization, token }) => `  ${token}  (${organization})`), '']
      : []),
    `${running.settings.data ? 'Role tokens of the harness, on the data file\'s first organization' : 'Demo tokens'} (Authorization: Bearer <token>):`,
    ...Object.entries(running.tokens).map(([name, token]) => `  ${name.padEnd(width)}  ${token}`),
    '',
    'Fixtures:',
    ...Object.entries(running.fixtures).map(([name, id]) => `  ${name}: ${id}`),
    '',
    'Try:',
    ...(running.settings.data ? dataTries(running, fileTokens[0]?.token ?? running.credentials.admin) : demoTries(running)),
    '',
  ];
  return lines.join('\n');
}
