/**
 * Reading an exchange's answer in the stateful suites and the model-based commands: its status,
 * its JSON object, whether it succeeded or was refused, and a few words for a failure message;
 * and waiting for a target that finishes work after answering.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15 (status code classes)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from './types.js';

export { sleep };

/** The answer of an exchange in a few words: `422 {"detail":[...]}`, or the transport error. */
export function answerText(exchange: Exchange | undefined): string {
  if (!exchange) return 'nothing (no request was sent)';
  if (!exchange.response) return `no answer (${exchange.transportError?.code ?? 'unknown'}: ${exchange.transportError?.message ?? ''})`;
  const body = exchange.response.body.replace(/\s+/g, ' ');
  return `${exchange.response.status}${body ? ` ${body.length > 160 ? `${body.slice(0, 160)}…` : body}` : ''}`;
}

/** The status of an exchange's response, or undefined when none came. */
export function statusOf(exchange: Exchange | undefined): number | undefined {
  return exchange?.response?.status;
}

/** The JSON object of an exchange's response, or undefined. */
export function bodyOf(exchange: Exchange | undefined): Record<string, unknown> | undefined {
  const json = exchange?.response?.json;
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
}

/** Whether the exchange got a 2xx answer. */
export function succeeded(exchange: Exchange | undefined): boolean {
  const status = statusOf(exchange);
  return status !== undefined && status >= 200 && status < 300;
}

/** Whether the exchange got a 4xx answer (a refusal that is the client's, not a server error). */
export function refused(exchange: Exchange | undefined): boolean {
  const status = statusOf(exchange);
  return status !== undefined && status >= 400 && status < 500;
}

/**
 * Repeats `attempt` until it returns true or `timeoutMs` has passed, for targets that finish work
 * after answering (an invoice generated asynchronously, an upload completed).
 * @param timeoutMs milliseconds (default 3,000); `intervalMs` between attempts (default 150)
 * @returns whether it returned true in time
 */
export async function eventually(attempt: () => Promise<boolean>, timeoutMs = 3000, intervalMs = 150): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await attempt()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs);
  }
}
