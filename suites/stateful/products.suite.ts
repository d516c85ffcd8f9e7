// Product benefits: POST /v1/products/{id}/benefits replaces the set of benefits (duplicates
// collapse, the same request twice changes nothing), and a benefit of another organization is
// refused with the product left as it was. The product is read back through the product list
// (filter id). The fixture product gets its original benefits back at the end.
import { benefitIdsOf, isExactly, sameSet } from '../../checks/stateful/benefit-sets.js';
import { answerText, bodyOf, defineScenario, refused, statefulSuite, statusOf, succeeded, type ScenarioRun } from '../../engine/stateful/scenario.js';

const suite = await statefulSuite();

type Item = Record<string, unknown>;

/** The product as the product list shows it (filter id), or a stop when the list does not. */
async function listedProduct(s: ScenarioRun, id: string): Promise<Item> {
  const listed = s.require(await s.send('products:list', { role: 'admin', query: { id } }), `GET /v1/products/?id=${id}`);
  const product = (Array.isArray(listed.items) ? (listed.items as Item[]) : []).find((item) => item.id === id);
  if (!product) return s.stop({ kind: 'product_not_listed', title: 'The product is not in the product list', message: `GET /v1/products/?id=${id} does not list product ${id}.`, expected: id, actual: listed.items });
  return product;
}

/** Sends a benefits replacement. */
function replace(s: ScenarioRun, id: string, benefits: string[]) {
  return s.send('products:update_benefits', { role: 'admin', pathParams: { id }, json: { benefits } });
}

/** Puts the product's original benefits back; a refusal is a failure like any other. */
async function restore(s: ScenarioRun, id: string, original: string[]): Promise<void> {
  const restored = await replace(s, id, original);
  s.check(succeeded(restored), { kind: 'benefits_restore_refused', title: 'Restoring the original benefits was refused', message: `POST /v1/products/${id}/benefits with the product's original benefits answered ${answerText(restored)}.`, expected: '200', actual: statusOf(restored) }, restored);
}

defineScenario(suite, 'product_benefits_replaced', async (s) => {
  const id = s.fixtures.product_id!;
  const product = await listedProduct(s, id);
  const original = benefitIdsOf(product);
  // Candidates: live benefits of the product's organization, as the products of the first page grant them.
  const listed = s.require(await s.send('products:list', { role: 'admin', query: { limit: '100' } }), 'GET /v1/products/');
  const candidates = [...new Set((Array.isArray(listed.items) ? (listed.items as Item[]) : []).flatMap((item) => (Array.isArray(item.benefits) ? (item.benefits as Item[]) : [])).filter((b) => b.organization_id === product.organization_id && b.is_deleted !== true).map((b) => b.id).filter((b): b is string => typeof b === 'string'))];
  const chosen = candidates.filter((b) => !original.includes(b)).slice(0, 2);
  if (chosen.length < 2) return s.skip(`fewer than two benefits of the product's organization that it does not grant yet among the first 100 products (${chosen.length})`);
  const [a, b] = chosen as [string, string];
  const wanted = [a, b];

  try {
    const first = await replace(s, id, [a, b, a]);
    if (!succeeded(first)) {
      return s.stop({ kind: 'benefits_replacement_refused', title: 'Replacing the benefits of a product was refused', message: `POST /v1/products/${id}/benefits with two benefits of its organization (one repeated) answered ${answerText(first)}.`, expected: 200, actual: statusOf(first) }, first);
    }
    s.check(isExactly(benefitIdsOf(bodyOf(first) ?? {}), wanted), {
      kind: 'benefits_not_replaced',
      title: 'The answered product does not grant exactly the given benefits',
      message: `POST /v1/products/${id}/benefits with ${JSON.stringify([a, b, a])} answered a product granting ${JSON.stringify(benefitIdsOf(bodyOf(first) ?? {}))}; the set replaces the old one, duplicates collapsing.`,
      expected: wanted,
      actual: benefitIdsOf(bodyOf(first) ?? {}),
    }, first);
    const second = await replace(s, id, [b, a]);
    s.check(succeeded(second) && isExactly(benefitIdsOf(bodyOf(second) ?? {}), wanted), {
      kind: 'benefits_replacement_not_idempotent',
      title: 'Sending the same set of benefits again changed the product',
      message: `Sending the same set again (in another order) answered ${answerText(second)}.`,
      expected: wanted,
      actual: benefitIdsOf(bodyOf(second) ?? {}),
    }, second);
    const shown = benefitIdsOf(await listedProduct(s, id));
    s.check(isExactly(shown, wanted), {
      kind: 'benefits_not_replaced',
      title: 'The product list does not show the replaced benefits',
      message: `After the replacement, GET /v1/products/?id=${id} shows benefits ${JSON.stringify(shown)}.`,
      expected: wanted,
      actual: shown,
    });
  } finally {
    await restore(s, id, original);
  }
});

defineScenario(suite, 'product_benefits_same_organization', async (s) => {
  const id = s.fixtures.product_id!;
  const foreign = s.fixtures.other_organization_benefit_id!;
  const original = benefitIdsOf(await listedProduct(s, id));
  const attempt = await replace(s, id, [...original, foreign]);
  s.check(refused(attempt), {
    kind: 'foreign_benefit_accepted',
    title: "A benefit of another organization was accepted",
    message: `POST /v1/products/${id}/benefits with benefit ${foreign} of another organization answered ${answerText(attempt)}; each benefit must belong to the product's organization.`,
    expected: 'a 4xx (422)',
    actual: statusOf(attempt),
  }, attempt);
  const shown = benefitIdsOf(await listedProduct(s, id));
  const unchanged = s.check(sameSet(shown, original), {
    kind: 'benefits_changed_by_refusal',
    title: 'A refused benefits replacement changed the product',
    message: `After the replacement with a foreign benefit, the product grants ${JSON.stringify(shown)} instead of ${JSON.stringify(original)}.`,
    expected: original,
    actual: shown,
  });
  if (!unchanged || succeeded(attempt)) await restore(s, id, original);
});
