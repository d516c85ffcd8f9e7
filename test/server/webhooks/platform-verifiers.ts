/**
 * The platform's own webhook verifiers, as its users call them: `validateEvent` of both
 * `@polar-sh/sdk` lines (0.49.0, imported by the framework adapters as `@polar-sh/sdk/webhooks`;
 * 1.0.1, `webhooks.validateEvent` of `@polar-sh/sdk/2026-10`). They are the judges of the
 * reference's deliveries, not a verifier of ours (docs/server-behaviour.md, Webhooks).
 */
import { SDKValidationError } from 'polar-sdk-0/models/errors/sdkvalidationerror.js';
import { validateEvent as validateEvent0, WebhookVerificationError } from 'polar-sdk-0/webhooks.js';
import { webhooks as webhooks1 } from 'polar-sdk-1/2026-10';

/** The two SDK lines. */
export const LINES = ['0.49.0', '1.0.1'] as const;
export type Line = (typeof LINES)[number];

/**
 * What one line's `validateEvent` said of a delivery: `accepted` when its signature and timestamp
 * verified; `parsed` when the payload came back as an event (false with `unknownKind` when the line
 * does not know the event's kind, false with `error` when its schema refused a known kind).
 */
export interface LineVerdict {
  accepted: boolean;
  parsed: boolean;
  unknownKind?: boolean;
  error?: string;
}

/** Header values as a verifier takes them (lower-case names, strings). */
function headersOf(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Verifies and parses one delivery with one line's `validateEvent`, at the wall clock's now. */
export async function verifyWithLine(line: Line, body: string, headers: Record<string, string | string[] | undefined>, secret: string): Promise<LineVerdict> {
  const plain = headersOf(headers);
  if (line === '0.49.0') {
    try {
      validateEvent0(body, plain, secret);
      return { accepted: true, parsed: true };
    } catch (error) {
      if (error instanceof WebhookVerificationError) return { accepted: false, parsed: false, error: error.message };
      if (error instanceof SDKValidationError) {
        const unknownKind = error.cause instanceof SDKValidationError && /Unknown event type/.test(error.cause.message);
        return { accepted: true, parsed: false, unknownKind, error: unknownKind ? error.cause instanceof Error ? error.cause.message : String(error.cause) : error.pretty?.() ?? error.message };
      }
      throw error;
    }
  }
  try {
    await webhooks1.validateEvent(body, plain, secret);
    return { accepted: true, parsed: true };
  } catch (error) {
    if (error instanceof webhooks1.PolarWebhookVerificationError) return { accepted: false, parsed: false, error: error.message };
    if (error instanceof webhooks1.PolarWebhookUnknownTypeError) return { accepted: true, parsed: false, unknownKind: true, error: error.message };
    if (error instanceof webhooks1.PolarWebhookError) return { accepted: true, parsed: false, error: error.message };
    throw error;
  }
}

/** Both lines' verdicts on one delivery. */
export async function verifyWithBoth(body: string, headers: Record<string, string | string[] | undefined>, secret: string): Promise<Record<Line, LineVerdict>> {
  return { '0.49.0': await verifyWithLine('0.49.0', body, headers, secret), '1.0.1': await verifyWithLine('1.0.1', body, headers, secret) };
}
