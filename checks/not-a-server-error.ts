import type { Check } from '../core/types.js';

/**
 * A request gets an answer, and never a 5xx. A timeout, a reset or a refused connection is a
 * finding too: a correct target answers every request.
 * @see spec/rules.yaml robustness.no_server_error; docs/design.md (Reference server)
 */
export const notAServerError: Check = {
  id: 'not_a_server_error',
  title: 'Server error',
  severity: 'critical',
  rule: 'robustness.no_server_error',
  layer: 'generic',
  evidence: 'exchange',
  conformanceClass: 'core',
  level: 'must',
  needs: 'exchange',
  run(_ctx, exchange) {
    if (exchange.transportError) {
      return [{
        kind: 'no_response',
        title: 'No response',
        message: `The target gave no complete answer (${exchange.transportError.code}): ${exchange.transportError.message}.`,
        expected: 'an HTTP response',
        actual: exchange.transportError,
      }];
    }
    const status = exchange.response!.status;
    if (status < 500) return [];
    return [{
      kind: 'server_error',
      title: 'Server error',
      message: `The target answered ${status}; a request must never cause a server error.`,
      expected: 'a status below 500',
      actual: status,
    }];
  },
};
