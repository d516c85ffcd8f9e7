/**
 * The burst cell: a `burst` check runs one burst from one address, past the client's pacing, and
 * is judged on the first 429 (or the last answer); opt-in on remote targets, and skipped rather
 * than passed when the evidence is undecided.
 * @see spec/rules.yaml limits.rate; docs/usage.md (Pointing it at a target: the rate-limit check's burst)
 */
import type { CellMeta, Role } from '../../core/types.js';
import { burstSize, documentedRateLimit } from '../../checks/rate-limit-enforced.js';
import { burstQuery, sourceAddressProblem, type BurstPlan } from '../burst.js';
import { noAnswerFinding } from '../judge.js';
import { testCase } from './cases.js';
import { gatherEvidence } from './evidence.js';
import type { CellInput } from './input.js';
import { notRun, placeFindings } from './verdict.js';

/**
 * The cell of a `burst` check: one burst, not a property (the limit is per client, and a second
 * burst would only repeat the first). Skipped, with the reason, when the target has not opted in
 * (`Target.burst`), when its source address cannot be bound here, or when the check finds the
 * evidence undecided (a burst answered too slowly to exceed the limit); never passed for want of evidence.
 */
export async function runBurstCell(input: CellInput, cell: CellMeta, role: Role | null): Promise<CellMeta> {
  const { spec, operation, check, target, client } = input;
  if (!target.burst) return notRun(cell, 'skipped', 'rate-limit burst is opt-in on remote targets (--rate-limit-check)', { kind: 'option', fix: 'add --rate-limit-check to send the burst' });
  const limit = documentedRateLimit(spec);
  if (!limit) return notRun(cell, 'not_applicable', 'the document declares no rate limit (x-rate-limit)');
  const { sourceAddress } = target.burst;
  const unusable = sourceAddress ? await sourceAddressProblem(sourceAddress) : undefined;
  if (unusable) return notRun(cell, 'skipped', unusable, { kind: 'option', fix: 'run where the burst source address can be bound' });
  const ctx = { spec, operation };
  const base = testCase(operation, target, { query: burstQuery(operation) }, role, check.needs, 0);
  const plan: BurstPlan = { requests: burstSize(limit), ...(sourceAddress ? { sourceAddress } : {}) };
  const { exchange, history } = await gatherEvidence(client, operation, check, base, { target, plan });
  cell.cases = 1;
  const burst = [...history, exchange];
  // The burst goes past the client: its answers are judged here, as every exchange is.
  for (const each of burst) input.judge?.(operation, each);
  cell.observed = {
    statuses: [...new Set(burst.flatMap((e) => (e.response ? [e.response.status] : [])))].sort((a, b) => a - b),
    parameters: Object.keys(base.query).map((name) => `query:${name}`).sort(),
  };
  if (!exchange.response) return placeFindings(input, cell, [noAnswerFinding(exchange)!], exchange);
  const undecided = check.undecided?.(ctx, exchange, history);
  if (undecided) return { ...cell, status: 'skipped', skipReason: undecided, skipKind: 'option', fix: 'run the burst from a machine nearer the target (a burst must arrive within the limit\'s window)' };
  return placeFindings(input, cell, check.run(ctx, exchange, history), exchange);
}
