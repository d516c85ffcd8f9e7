/**
 * Helpers of the reference server's tests: build an app once, send requests as a role through
 * `inject()`, walk every page of a list, and check bodies against the spec.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions, type ReferenceApp } from '../../server/app.js';
import type { DemoTokenName } from '../../server/auth.js';

/** Query values as sent; arrays become repeated parameters. */
export type Query = Record<string, string | number | boolean | (string | number)[]>;

/** Encodes a query with repeated parameters for arrays. */
export function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A request of {@link TestServer.send}. */
export interface SendOptions {
  query?: Query;
  /** A demo token (default admin), `null` for no Authorization header. */
  as?: DemoTokenName | null;
  /** A bearer token string, instead of `as`. */
  token?: string;
  /** A JSON body. */
  json?: unknown;
  /** A form-encoded body. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** A built app with request helpers. */
export interface TestServer extends ReferenceApp {
  /** GET `path` with the query, as a demo token (default admin), `null` for no Authorization header. */
  get(path: string, query?: Query, as?: DemoTokenName | null, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Any method, with a JSON or form body. */
  send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', path: string, options?: SendOptions): Promise<LightMyRequestResponse>;
  /** Every item of a list, walking pages of `limit` (default 100); asserts 200 on every page. */
  all(path: string, query?: Query, as?: DemoTokenName): Promise<{ items: any[]; totalCount: number; pages: any[][] }>;
}

/**
 * Builds an app for a test file. The rate limit is off unless `options.rateLimit` says otherwise:
 * tests send requests much faster than 100 per second, and only the rate limit's own tests are about it.
 */
export async function testServer(options: BuildAppOptions = {}): Promise<TestServer> {
  const built = await buildApp({ rateLimit: false, ...options });
  const get: TestServer['get'] = (path, query = {}, as = 'admin', headers = {}) =>
    built.app.inject({
      method: 'GET',
      url: `${path}${queryString(query)}`,
      headers: { ...(as ? { authorization: `Bearer ${built.tokens[as]}` } : {}), ...headers },
    });
  const all: TestServer['all'] = async (path, query = {}, as = 'admin') => {
    const limit = Number(query.limit ?? 100);
    const pages: any[][] = [];
    let totalCount = -1;
    for (let page = 1; page < 1000; page++) {
      const response = await get(path, { ...query, limit, page }, as);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      totalCount = body.pagination.total_count;
      if (body.items.length === 0) break;
      pages.push(body.items);
    }
    return { items: pages.flat(), totalCount, pages };
  };
  const send: TestServer['send'] = (method, path, options = {}) => {
    const as = options.as === undefined ? 'admin' : options.as;
    const token = options.token ?? (as ? built.tokens[as] : undefined);
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
    let payload: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(options.form).toString();
    }
    return built.app.inject({ method, url: `${path}${queryString(options.query ?? {})}`, headers: { ...headers, ...options.headers }, ...(payload !== undefined ? { payload } : {}) });
  };
  return { ...built, get, all, send };
}

/** The path and query of an absolute URL the reference handed out, for `inject()`. */
export function localPath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * A signed URL with the first character of its `signature` changed to another one (the server's keys
 * are random, so a fixed replacement could be the character already there).
 */
export function tamperedSignature(url: string): string {
  const tampered = url.replace(/signature=(.)/, (_match, first: string) => `signature=${first === 'x' ? 'y' : 'x'}`);
  expect(tampered).not.toBe(url);
  return tampered;
}

/** Asserts that a response is valid for the operation per the spec (status documented, body valid). */
export function expectConforms(server: ReferenceApp, operationId: string, response: LightMyRequestResponse): void {
  const operation = server.spec.operation(operationId);
  const status = server.spec.matchStatus(operation, response.statusCode);
  expect(status, `status ${response.statusCode} documented for ${operationId}: ${response.body.slice(0, 300)}`).toBeDefined();
  if (response.statusCode === 204) {
    expect(response.body).toBe('');
    return;
  }
  const mediaType = String(response.headers['content-type']).split(';')[0]!;
  expect(operation.responseMediaTypes[status!], `media type of ${response.statusCode}`).toContain(mediaType);
  const result = server.spec.validateResponse(operation, status!, mediaType, response.json());
  expect(result, `schema for ${status} ${mediaType}`).toBeDefined();
  expect(result!.ok ? [] : result!.errors.slice(0, 5)).toEqual([]);
}

/** Ids of a list of items. */
export function ids(items: { id: string }[]): string[] {
  return items.map((item) => item.id);
}

let schemaAjv: Ajv2020 | undefined;

/** Asserts that a value validates against a named schema of the spec's components (for bodies whose documented schema is open). */
export function expectSchema(server: ReferenceApp, name: string, value: unknown): void {
  if (!schemaAjv) {
    schemaAjv = new Ajv2020({ strict: false, allErrors: true, discriminator: false });
    (addFormats as unknown as { default: (ajv: Ajv2020) => void }).default(schemaAjv);
  }
  const validate = schemaAjv.compile(server.spec.document.components.schemas[name]);
  expect(validate(value) ? [] : validate.errors!.slice(0, 5)).toEqual([]);
}
