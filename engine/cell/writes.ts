/**
 * The write cell: a check on an operation that changes state, each case on a fixture made for it
 * (the shared write cases for `exchange` checks, one write per role, the other organization's
 * attempt read back before and after, the credential probes).
 * @see spec/rules.yaml auth.tenant_isolation, writes.effect_visible, auth.write_scope_suffices;
 *   docs/usage.md (Writes: every answer judged, each case on a fixture made for it);
 *   docs/decisions.md (Harness: "Writes are cases on fixtures made for them, in their own suite")
 */
import type { CellMeta, Check, Exchange, Role } from '../../core/types.js';
import { roleFor } from '../../core/operation-needs.js';
import { writeTestCase, type WriteFixture } from '../write-cases.js';
import { INVALID_TOKEN, REFUSED } from './cases.js';
import { sendPlanned } from './evidence.js';
import type { CellInput } from './input.js';
import { judgeEvidence, observer, placeFindings } from './verdict.js';

/** Probes whose requests are refused for their credentials: on a write, they name a fixture made for the case when one can be made. */
export const CREDENTIAL_PROBES: ReadonlySet<Check['needs']> = new Set(['anonymous', 'invalid_credentials', 'no_scope']);

/**
 * The cell of a check on an operation that changes state, each case on a fixture made for it:
 * `exchange` checks judge the operation's shared write cases; `roles` sends one write per role,
 * each on its own fixture; `other_org` reads the resource back as its owner, sends the write with
 * the other organization's token and reads it back again (history: before, after); the credential
 * probes and `reader` send the write with their credentials.
 */
export async function runWriteCell(input: CellInput, cell: CellMeta, role: Role | null): Promise<CellMeta> {
  const { spec, operation, check, client } = input;
  const writes = input.writes!;
  const ctx = { spec, operation };
  const observed = observer();
  const judgeOne = (exchange: Exchange, history: Exchange[]): CellMeta | undefined => {
    cell.cases++;
    [...history, exchange].forEach(observed.add);
    const findings = judgeEvidence(check, ctx, exchange, history);
    cell.observed = observed.result();
    return findings.length ? placeFindings(input, cell, findings, exchange) : undefined;
  };
  if (check.needs === 'exchange') {
    const evidence = await input.writeEvidence!();
    for (const { exchange, history } of evidence) {
      const failed = judgeOne(exchange, history);
      if (failed) return failed;
    }
    return cell;
  }
  const id = `${operation.operationId}#${check.id}`;
  const owner = roleFor(operation);
  if (check.needs === 'roles') {
    const exchanges: Exchange[] = [];
    for (const [i, each] of (check.roles ?? [owner]).entries()) {
      const fixture = await writes.make(each, i);
      exchanges.push(await client.send(operation, writeTestCase(operation, fixture, each, `${id}/${each ?? 'anonymous'}`)));
    }
    return judgeOne(exchanges.at(-1)!, exchanges.slice(0, -1)) ?? cell;
  }
  const fixture: WriteFixture = await writes.make(owner, 0);
  const probe = writeTestCase(operation, fixture, role, id);
  if (check.needs === 'invalid_credentials') probe.headers = { authorization: `Bearer ${INVALID_TOKEN}` };
  if (REFUSED.has(check.needs)) probe.refusal = true;
  if (check.needs === 'other_org') {
    const before = fixture.readBack ? await sendPlanned(client, fixture.readBack, `${id}/before`) : undefined;
    const exchange = await client.send(operation, probe);
    const after = fixture.readBack ? await sendPlanned(client, fixture.readBack, `${id}/after`) : undefined;
    return judgeOne(exchange, before && after ? [before, after] : []) ?? cell;
  }
  return judgeOne(await client.send(operation, probe), []) ?? cell;
}
