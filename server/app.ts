/**
 * The reference server as a Fastify instance: routes generated from the spec's operations and
 * bound to {@link HANDLERS} by operationId, behind one pipeline (authenticate, authorize, validate
 * the query, handle, write). Every answer, errors included, is in the API's own JSON format.
 * @see shared/design.md, Reference server
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { loadSpec, specPath, type ApiVersion, type LoadedSpec, type Operation } from '../spec/load.js';
import { authenticate, authorize, issueDemoTokens, type DemoTokenName, type Principal, type ReferenceRole } from './auth.js';
import { seedDemoData } from './demo-data.js';
import { resolveFaults, type FaultId, type FaultSet } from './faults.js';
import { HANDLERS } from './handlers.js';
import { errorReply, validationReply, type Reply } from './replies.js';
import { createStore, type Store } from './store.js';
import { compileQueryParser, parseQueryString, type RawQuery } from './validation.js';

/** Options of {@link buildApp}. */
export interface BuildAppOptions {
  /** Seed of the demo data and demo tokens (default 1). */
  seed?: number;
  /** Applied at serialization (default `2026-10`). @see shared/api-description.md, Versioning */
  apiVersion?: ApiVersion;
  /** Fault ids of server/faults.ts to switch on. */
  faults?: string[];
  /** OpenAPI document whose operations become routes (default spec/openapi.yaml). */
  specFile?: string;
  /** Current time (default the system clock); demo data does not depend on it. */
  clock?: () => Date;
  /** Fastify (pino) request logging; off by default. */
  logger?: boolean;
}

/** A built reference server, not yet listening. */
export interface ReferenceApp {
  app: FastifyInstance;
  store: Store;
  spec: LoadedSpec;
  /** Tokens of the harness roles. */
  credentials: Record<ReferenceRole, string>;
  /** Every demo token: the roles plus `pat` and `oidc` (a member of organization A, every scope). */
  tokens: Record<DemoTokenName, string>;
  /** Ids that exist, by name (see demo-data.ts). */
  fixtures: Record<string, string>;
  /** The faults switched on. */
  faults: FaultId[];
}

const MAX_DETAIL_PATH = 200;

/** `/v1/products/{id}` to Fastify's `/v1/products/:id`. */
function fastifyPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/** The URLs a path template is served at: as the spec gives it, and without its trailing slash for clients that drop it. */
function routeUrls(template: string): string[] {
  const url = fastifyPath(template);
  return url.length > 1 && url.endsWith('/') ? [url, url.slice(0, -1)] : [url];
}

/** Matches a request path to the methods the spec documents for it, for 405 answers and the Allow header. */
function methodsByPath(spec: LoadedSpec): (path: string) => string[] | undefined {
  const entries = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const operation of spec.operations) {
    let entry = entries.get(operation.path);
    if (!entry) {
      const source = operation.path
        .replace(/\/$/, '')
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      entry = { pattern: new RegExp(`^${source}/?$`), methods: new Set() };
      entries.set(operation.path, entry);
    }
    entry.methods.add(operation.method);
    if (operation.method === 'GET') entry.methods.add('HEAD');
  }
  return (path) => {
    const methods = [...entries.values()].filter((entry) => entry.pattern.test(path)).flatMap((entry) => [...entry.methods]);
    return methods.length > 0 ? [...new Set(methods)] : undefined;
  };
}

/** Writes a reply: JSON body (as text/plain under the `wrong_content_type` fault for lists), or no body. */
function send(reply: FastifyReply, answer: Reply, asPlainText = false): FastifyReply {
  reply.status(answer.status);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.body === undefined) return reply.send();
  if (asPlainText) return reply.type('text/plain; charset=utf-8').send(JSON.stringify(answer.body));
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/**
 * Builds the reference server: loads the spec, seeds the store with the demo data, issues the
 * demo tokens and registers one route per operation (plus the no-trailing-slash variant).
 * @throws HarnessError CNF_ERR_FAULT_UNKNOWN for an unknown fault id; CNF_ERR_SPEC_INVALID for an unreadable or invalid spec
 * @see shared/design.md, Reference server
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<ReferenceApp> {
  const faults: FaultSet = resolveFaults(options.faults ?? []);
  const apiVersion: ApiVersion = options.apiVersion ?? '2026-10';
  const spec = await loadSpec(options.specFile ?? specPath());
  const store = createStore({ seed: options.seed ?? 1, ...(options.clock ? { clock: options.clock } : {}) });
  const demo = seedDemoData(store);
  const tokens = issueDemoTokens(store, demo.organizations, demo.userId);

  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { querystringParser: parseQueryString },
    frameworkErrors: (error, _request, reply) => {
      send(reply, errorReply(400, error.message));
    },
  });

  // An empty body with Content-Type: application/json is no body at all, not a parse error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') done(null, undefined);
    else parseJson(request, text, done);
  });
  // No operation reads a non-JSON body yet: accept and ignore any other media type, so that
  // unknown routes and methods are answered 404/405 rather than 415.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  let requestNumber = 0;
  const serveOperation = (operation: Operation) => {
    const handler = HANDLERS[operation.operationId];
    const parseQuery = compileQueryParser(operation.parameters, faults.has('limit_unbounded') ? { ignoreMaximum: ['limit'] } : {});
    return (query: RawQuery, authorization: string | undefined, pathParams: Record<string, string>): Reply => {
      if (!handler) return errorReply(501, `The reference server has no handler for ${operation.operationId}.`);
      let principal: Principal | undefined;
      if (operation.security.length > 0) {
        const header = authorization ?? (faults.has('missing_auth_accepted') ? `Bearer ${tokens.admin}` : undefined);
        const auth = authenticate(store, header);
        if (!auth.ok) return auth.reply;
        const denied = authorize(auth.principal, operation.security, faults);
        if (denied) return denied;
        principal = auth.principal;
      }
      if (faults.has('server_error_on_bad_limit') && query.limit !== undefined && !/^\d+$/.test(String(query.limit))) {
        throw new Error(`limit ${String(query.limit)} is not a number`);
      }
      const parsed = parseQuery(query);
      if (!parsed.ok) return validationReply(parsed.errors);
      return handler({ store, apiVersion, principal, query: parsed.query, pathParams, faults, requestNumber: ++requestNumber });
    };
  };

  for (const operation of spec.operations) {
    const serve = serveOperation(operation);
    const plainText = faults.has('wrong_content_type') && operation.paginated;
    for (const url of routeUrls(operation.path)) {
      app.route({
        method: operation.method,
        url,
        handler: async (request, reply) => {
          const answer = serve(request.query as RawQuery, request.headers.authorization, request.params as Record<string, string>);
          return send(reply, answer, plainText && answer.status === 200);
        },
      });
    }
  }

  const allowedMethods = methodsByPath(spec);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > MAX_DETAIL_PATH ? `${path.slice(0, MAX_DETAIL_PATH)}...` : path;
    const allowed = allowedMethods(path);
    if (allowed) {
      return send(reply, errorReply(405, `Method ${request.method} is not allowed on ${shown}; allowed: ${allowed.join(', ')}.`, { allow: allowed.join(', ') }));
    }
    return send(reply, errorReply(404, `No resource at ${request.method} ${shown}.`));
  });

  app.setErrorHandler((error: { statusCode?: number; message?: string }, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'unexpected error');
    return send(reply, errorReply(status, status === 500 ? 'The server failed to handle the request.' : (error.message ?? 'Bad request.')));
  });

  const { admin, reader, no_scope, other_org } = tokens;
  return {
    app,
    store,
    spec,
    credentials: { admin, reader, no_scope, other_org },
    tokens,
    fixtures: demo.fixtures,
    faults: [...faults],
  };
}
