// The platform's own TypeScript clients as test clients of the reference: both SDK lines
// (@polar-sh/sdk 0.49.0, which validates every answer with zod, and 1.0.1, which sends Polar-Version
// itself), both API versions, every one of the twenty operations and the read-back operations, on
// their success path with real fixtures and on their documented error paths, against the embedded
// reference listening on a loopback port. Every call succeeds, or fails with the documented error,
// except the differences listed in EXCEPTIONS, each with its reason.
// @see docs/platform.md
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReference } from '../../server/index.js';
import type { ApiVersion } from '../../core/spec/load.js';
import { OPERATIONS, sdkCalls, type Call, type Line } from './calls.js';

/**
 * The one list of calls that do not go as the platform's clients expect, and why. `description`:
 * the API description's own words force the difference (its line quoted); `sdk`: the client
 * itself cannot make the call succeed against any server, the platform included. The default demo
 * store holds only the price types the platform's document knows (server/demo-data.ts
 * PLATFORM_PRICE_TYPES), so no answer of it needs an exception for its prices.
 */
const EXCEPTIONS: Record<string, { source: 'description' | 'sdk'; reason: string; outcome: Outcome }> = {
  '0.49.0 files:create': {
    source: 'description',
    reason: 'api-description.md, Endpoints: "POST | /v1/files/ | body (below). Scope files:write | 200 File including upload; 422". The platform answers 201, and 0.49.0 takes any other status for an unexpected answer.',
    outcome: { ok: false, status: 200, kind: 'SDKError' },
  },
  '1.0.1 oauth2:token': {
    source: 'sdk',
    reason: '1.0.1\'s oauth2.requestToken sends no body at all (no grant_type, code or client credentials), so every server refuses it; the reference answers the OAuth 2.0 error of RFC 6749 section 5.2.',
    outcome: { ok: false, status: 400, kind: 'PolarClientError' },
  },
  '1.0.1 oauth2:introspect': {
    source: 'sdk',
    reason: '1.0.1\'s oauth2.introspectToken sends no body (no token, no client credentials), so every server refuses it; the reference answers 400 invalid_request (RFC 7662 section 2.1 needs the token).',
    outcome: { ok: false, status: 400, kind: 'PolarClientError' },
  },
};

/** What a call came to: success, or the error's status code and class name. */
type Outcome = { ok: true } | { ok: false; status: number | undefined; kind: string };

let reference: RunningReference;

beforeAll(async () => {
  reference = await startReferenceServer({ host: '127.0.0.1', port: 0, rateLimit: false, control: false });
});

afterAll(async () => {
  await reference.close();
});

/** The status code and class of an SDK error, whichever line threw it. */
function outcomeOf(error: unknown): Outcome {
  const e = error as { statusCode?: number; httpMeta?: { response?: Response }; rawResponse?: Response; name?: string; constructor?: { name?: string } };
  const status = e.statusCode ?? e.httpMeta?.response?.status ?? e.rawResponse?.status;
  const kind = e.name && e.name !== 'Error' ? e.name : (e.constructor?.name ?? 'Error');
  return { ok: false, status, kind };
}

async function attempt(call: Call): Promise<Outcome> {
  try {
    await call.run();
    return { ok: true };
  } catch (error) {
    return outcomeOf(error);
  }
}

describe.each([
  ['0.49.0', '2026-04'],
  ['0.49.0', '2026-10'],
  ['1.0.1', '2026-04'],
  ['1.0.1', '2026-10'],
] as [Line, ApiVersion][])('@polar-sh/sdk %s, API version %s', (line, version) => {
  const calls = () => sdkCalls(reference, line, version);

  it('calls each of the twenty operations and the six read-back ones', () => {
    expect([...new Set(calls().map((call) => call.operationId))].sort()).toEqual([...OPERATIONS].sort());
  });

  it('every call succeeds or fails with its documented status, except the listed exceptions', async () => {
    const failures: string[] = [];
    for (const call of calls()) {
      const outcome = await attempt(call);
      const label = `${call.operationId} (${call.name})`;
      const shown = outcome.ok ? 'succeeded' : `${outcome.kind} ${outcome.status ?? '(no status)'}`;
      const exception = call.expected === 'ok' ? EXCEPTIONS[`${line} ${call.operationId}`] : undefined;
      if (exception) {
        const listed = exception.outcome as { kind: string; status: number };
        if (outcome.ok || outcome.kind !== listed.kind || outcome.status !== listed.status) failures.push(`${label}: listed exception expected ${JSON.stringify(exception.outcome)}, got ${shown}`);
      } else if (call.expected === 'ok') {
        if (!outcome.ok) failures.push(`${label}: ${shown}`);
      } else if (outcome.ok || outcome.status !== call.expected || ['SDKError', 'ResponseValidationError'].includes(outcome.kind)) {
        // A documented error must come as its typed error (0.49.0 validates the error body too), never as an SDKError or ResponseValidationError.
        failures.push(`${label}: expected the documented ${call.expected}, got ${shown}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers carry the version asked for', async () => {
    const response = await fetch(`${reference.url}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${reference.tokens.admin}`, 'polar-version': version } });
    expect(response.headers.get('polar-version')).toBe(version);
    const [product] = ((await response.json()) as { items: Record<string, unknown>[] }).items;
    expect(Object.hasOwn(product!, 'is_deletable')).toBe(version === '2026-10');
  });
});

describe('the exceptions', () => {
  it('each names its source and reason, and description-forced ones quote the description', () => {
    for (const [key, exception] of Object.entries(EXCEPTIONS)) {
      expect(key).toMatch(/^(0\.49\.0|1\.0\.1) [a-z0-9_]+:[a-z_:]+$/);
      expect(exception.reason.length).toBeGreaterThan(40);
      if (exception.source === 'description') expect(exception.reason).toMatch(/^api-description\.md, /);
    }
  });
});
