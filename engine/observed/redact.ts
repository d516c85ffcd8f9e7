/**
 * Redaction of secrets in observed exchanges, for recordings (`proxy --record`) and reproducers:
 * credential headers, secret query parameters and body fields become `[redacted:VAR]`, naming the
 * environment variable a reproducer uses for them; secrets in response bodies are masked with
 * characters of the same byte length, so that every check judges the recorded answer as it judged
 * the live one.
 * @see docs/observed.md (Redaction); RFC 6749 sections 2.3.1, 4.1.3 and 5.1 and RFC 7662 section 2.1 (where OAuth 2.0 puts secrets)
 */
import type { HttpRequest, HttpResponse } from '../../core/types.js';

/** Request headers whose values are credentials. */
export const SECRET_REQUEST_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key']);
/** Query parameters and body fields whose values are secrets (OAuth 2.0 RFC 6749 sections 2.3.1, 4.1.3, 5.1; RFC 7662 section 2.1). */
export const SECRET_FIELDS = /^(access_token|refresh_token|id_token|token|client_secret|password|code|invitation_token|api_key|apikey)$/i;

/**
 * How a recording names a secret: the environment variable that stands for it
 * (`CONFORMANCE_TOKEN_1`), the same one the live run's reproducers use.
 */
export type SecretNamer = (value: string) => string;

/** The placeholder a redacted secret is recorded as: `[redacted:VAR]`, which `conformance check` reads back as the variable `VAR`. */
export function placeholder(env: string): string {
  return `[redacted:${env}]`;
}

/**
 * The request with its secrets replaced by placeholders: credential headers (the scheme of an
 * Authorization header kept), secret query parameters, secret fields of a JSON or form body.
 */
export function redactRequest(request: HttpRequest, name: SecretNamer): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(request.headers)) {
    if (!SECRET_REQUEST_HEADERS.has(header) || value.trim() === '') headers[header] = value;
    else if (header === 'authorization' || header === 'proxy-authorization') {
      const scheme = /^(Bearer|Basic)\s+/i.exec(value)?.[0] ?? '';
      headers[header] = `${scheme}${placeholder(name(value.slice(scheme.length)))}`;
    } else headers[header] = placeholder(name(value));
  }
  const url = new URL(request.url);
  for (const [field, value] of [...url.searchParams]) if (SECRET_FIELDS.test(field) && value !== '') url.searchParams.set(field, placeholder(name(value)));
  let body = request.body;
  if (body !== undefined) {
    const type = headers['content-type'] ?? '';
    if (/json/i.test(type)) {
      try {
        body = JSON.stringify(redactJson(JSON.parse(body), (value) => placeholder(name(value))));
      } catch {
        // Not JSON after all: kept as sent.
      }
    } else if (/x-www-form-urlencoded/i.test(type)) {
      const form = new URLSearchParams(body);
      for (const [field, value] of [...form]) if (SECRET_FIELDS.test(field) && value !== '') form.set(field, placeholder(name(value)));
      body = form.toString();
    }
  }
  return { ...request, url: url.toString(), headers, ...(body !== undefined ? { body } : {}) };
}

function redactJson(value: unknown, replace: (secret: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => redactJson(v, replace));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELDS.test(k) && typeof v === 'string' && v !== '' ? replace(v) : redactJson(v, replace)]));
}

/**
 * The response with its secrets masked: `Set-Cookie` replaced, and the string values of secret
 * fields of a JSON body (an issued access token) overwritten with text of the same byte length, so
 * that the body's size, and every check of it, stays what the live run judged. With `name`, a
 * secret long enough is overwritten with its placeholder (`[redacted:VAR]`, the same one a request
 * that sends it back is recorded with) padded with `x`, so that an offline judge still pairs a
 * token answer with the introspection of that token (engine/evidence.ts); else with `x` alone.
 */
export function redactResponse(response: HttpResponse, name?: SecretNamer): HttpResponse {
  const headers = { ...response.headers };
  if (headers['set-cookie'] !== undefined) headers['set-cookie'] = '[redacted]';
  if (response.json === undefined) return { ...response, headers };
  const secrets = new Set<string>();
  redactJson(response.json, (secret) => {
    if (secret.length > 0) secrets.add(secret);
    return secret;
  });
  if (secrets.size === 0) return { ...response, headers };
  let body = response.body;
  for (const secret of secrets) {
    const escaped = JSON.stringify(secret).slice(1, -1);
    const bytes = Buffer.byteLength(escaped);
    const marked = name ? placeholder(name(secret)) : '';
    body = body.split(escaped).join(marked !== '' && marked.length <= bytes ? marked.padEnd(bytes, 'x') : 'x'.repeat(bytes));
  }
  let json: unknown = response.json;
  try {
    json = JSON.parse(body);
  } catch {
    // Masking kept the JSON valid, since only string contents changed; kept as parsed otherwise.
  }
  return { ...response, headers, body, json };
}
