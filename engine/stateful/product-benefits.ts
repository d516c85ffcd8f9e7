/**
 * Model-based commands of a product's benefits: POST /v1/products/{id}/benefits with random lists
 * of benefits of the product's organization (duplicates included), sometimes with a benefit of
 * another organization among them, and the product read back through the product list (filter
 * id). The model says what the product grants after each: exactly the set given, or, for a refused
 * request, what it granted before. The fixture product gets its benefits back after every sequence.
 * @see spec/rules.yaml products.benefits_replaced, products.benefits_same_organization; operation products:update_benefits
 */
import fc from 'fast-check';
import { ModelCommand } from './command.js';
import type { Family } from './family.js';
import { familyInfo } from './registry.js';
import { replacedBenefits, type BenefitsModel } from './model.js';
import { answerText, bodyOf, refused, statusOf, succeeded, type Real } from './real.js';

type Item = Record<string, unknown>;

/** Most candidate benefits a sequence chooses from (`b1`...), so that counterexamples stay short. */
export const MAX_CANDIDATES = 6;

/** What the sequence keeps: the product, the candidate benefits by index, the foreign one, and what the product granted at the start. */
interface BenefitsData {
  productId: string;
  candidates: string[];
  foreign: string | undefined;
  original: string[];
}

const DATA = 'product-benefits';

/** The benefit ids a product grants, in its order. */
export function benefitIdsOf(product: Item | undefined): string[] {
  const benefits = product?.benefits;
  return Array.isArray(benefits) ? (benefits as Item[]).map((b) => b.id).filter((id): id is string => typeof id === 'string') : [];
}

/** The labels of a set of candidate indexes (`[b1,b3]`). */
function labels(indexes: readonly number[]): string {
  return `[${indexes.map((i) => `b${i + 1}`).join(',')}]`;
}

/** Reads the product through the product list (filter id), recorded as `what`. */
async function readProduct(real: Real, productId: string, what?: string): Promise<{ exchange: Awaited<ReturnType<Real['send']>>; product: Item | undefined }> {
  const exchange = await real.send('products:list', { role: 'admin', query: { id: productId } }, what);
  const items = bodyOf(exchange)?.items;
  return { exchange, product: (Array.isArray(items) ? (items as Item[]) : []).find((item) => item.id === productId) };
}

const sorted = (ids: readonly string[]): string[] => [...ids].sort();

/** replaceBenefits([...]): the product grants exactly the given set; with a foreign benefit among them, a 4xx and nothing changes. */
export class ReplaceBenefits extends ModelCommand<BenefitsModel> {
  readonly picks: number[];
  /** Where a benefit of another organization goes in the list, or null for none. */
  readonly foreignAt: number | null;
  constructor(picks: number[], foreignAt: number | null) {
    super();
    this.picks = picks;
    this.foreignAt = foreignAt;
  }
  protected get name(): string {
    return `replaceBenefits(${this.picks.length} benefits${this.foreignAt === null ? '' : ', one foreign'})`;
  }
  #indexes(model: Readonly<BenefitsModel>): number[] {
    return model.candidates === 0 ? [] : this.picks.map((p) => p % model.candidates);
  }
  check(model: Readonly<BenefitsModel>): boolean {
    return this.foreignAt === null || model.foreign;
  }
  /** The list sent, as labels (`[b2,foreign,b1]`). */
  #sent(model: Readonly<BenefitsModel>): string {
    const shown = this.#indexes(model).map((i) => `b${i + 1}`);
    if (this.foreignAt !== null) shown.splice(this.foreignAt % (shown.length + 1), 0, 'foreign');
    return `[${shown.join(',')}]`;
  }
  describe(model: Readonly<BenefitsModel>): string {
    return `replaceBenefits(${this.#sent(model)})${this.foreignAt === null ? '' : '[refused]'}`;
  }
  protected async execute(model: BenefitsModel, real: Real): Promise<void> {
    const data = real.data.get(DATA) as BenefitsData;
    const sent = this.#sent(model);
    const indexes = this.#indexes(model);
    const foreign = this.foreignAt !== null;
    const before = [...model.granted];
    model.granted = replacedBenefits(model, indexes, foreign);
    const ids = indexes.map((i) => data.candidates[i]!);
    if (foreign) ids.splice(this.foreignAt! % (ids.length + 1), 0, data.foreign!);
    const answer = await real.send('products:update_benefits', { role: 'admin', pathParams: { id: data.productId }, json: { benefits: ids } });
    if (foreign) {
      real.expect(refused(answer), {
        rule: 'products.benefits_same_organization',
        kind: 'foreign_benefit_accepted',
        title: 'A benefit of another organization was accepted',
        message: `POST /v1/products/{id}/benefits with ${sent}, where "foreign" is a benefit of another organization, answered ${answerText(answer)}; each benefit must belong to the product's organization.`,
        expected: 'a 4xx (422)',
        actual: statusOf(answer),
      }, answer);
      return;
    }
    const granted = benefitIdsOf(bodyOf(answer));
    const wanted = model.granted.map((i) => data.candidates[i]!);
    real.expect(succeeded(answer) && JSON.stringify(sorted(granted)) === JSON.stringify(sorted(wanted)), {
      rule: 'products.benefits_replaced',
      kind: 'benefits_not_replaced',
      title: 'The answered product does not grant exactly the given benefits',
      message: `POST /v1/products/{id}/benefits with ${sent} (before: ${labels(before)}) answered ${answerText(answer)}; the set replaces the old one, duplicates collapsing, so the product grants ${labels(model.granted)}.`,
      expected: wanted,
      actual: succeeded(answer) ? granted : statusOf(answer),
    }, answer);
  }
}

/** getProduct: the product list shows the product granting what the model says. */
export class GetProduct extends ModelCommand<BenefitsModel> {
  protected get name(): string {
    return 'getProduct';
  }
  check(): boolean {
    return true;
  }
  describe(): string {
    return 'getProduct';
  }
  protected async execute(model: BenefitsModel, real: Real): Promise<void> {
    const data = real.data.get(DATA) as BenefitsData;
    const { exchange, product } = await readProduct(real, data.productId);
    const shown = benefitIdsOf(product);
    const wanted = model.granted.map((i) => data.candidates[i]!);
    real.expect(product !== undefined && JSON.stringify(sorted(shown)) === JSON.stringify(sorted(wanted)), {
      rule: 'products.benefits_replaced',
      kind: 'benefits_not_replaced',
      title: 'The product list does not show the benefits the product was given',
      message: `GET /v1/products/?id=… ${product ? `shows the product granting ${JSON.stringify(shown)}` : `does not list the product (${answerText(exchange)})`}; after the commands before, it grants ${labels(model.granted)}.`,
      expected: wanted,
      actual: product ? shown : statusOf(exchange),
    }, exchange);
  }
}

/** The product benefits family: the fixture product_id, its organization's benefits as candidates, other_organization_benefit_id as the foreign one. */
export const productBenefitsFamily: Family<BenefitsModel> = {
  ...familyInfo('product-benefits'),
  commands() {
    return [
      fc.tuple(fc.array(fc.nat({ max: MAX_CANDIDATES - 1 }), { maxLength: 5 }), fc.option(fc.nat({ max: 5 }), { freq: 4 })).map(([picks, foreignAt]) => new ReplaceBenefits(picks, foreignAt)),
      fc.constant(null).map(() => new GetProduct()),
    ];
  },
  async whyNot(real) {
    const { product, exchange } = await readProduct(real, real.env.target.fixtures.product_id!);
    return product ? undefined : { reason: `the product list does not show the fixture product_id (${answerText(exchange)})`, kind: 'fixture', fix: 'name under "fixtures" a product_id that the admin role lists' };
  },
  async setup(real) {
    const productId = real.env.target.fixtures.product_id!;
    const { product } = await readProduct(real, productId);
    const original = benefitIdsOf(product);
    // Candidates: live benefits of the product's organization, as the products of the first page grant them.
    const listed = await real.send('products:list', { role: 'admin', query: { limit: '100' } });
    const items = bodyOf(listed)?.items;
    const granted = (Array.isArray(items) ? (items as Item[]) : []).flatMap((item) => (Array.isArray(item.benefits) ? (item.benefits as Item[]) : []));
    const live = granted.filter((b) => b.organization_id === product?.organization_id && b.is_deleted !== true).map((b) => b.id).filter((id): id is string => typeof id === 'string');
    const candidates = [...new Set([...original, ...live])].slice(0, Math.max(MAX_CANDIDATES, original.length));
    const foreign = real.env.target.fixtures.other_organization_benefit_id;
    real.data.set(DATA, { productId, candidates, foreign, original } satisfies BenefitsData);
    return { candidates: Math.min(candidates.length, MAX_CANDIDATES), granted: original.map((id) => candidates.indexOf(id)).sort((a, b) => a - b), foreign: foreign !== undefined };
  },
  async teardown(real) {
    const data = real.data.get(DATA) as BenefitsData | undefined;
    if (!data) return;
    real.begin('teardown');
    const restored = await real.send('products:update_benefits', { role: 'admin', pathParams: { id: data.productId }, json: { benefits: data.original } });
    real.expect(succeeded(restored), {
      rule: 'products.benefits_replaced',
      kind: 'benefits_restore_refused',
      title: 'Restoring the original benefits was refused',
      message: `POST /v1/products/{id}/benefits with the product's original benefits answered ${answerText(restored)}.`,
      expected: '200',
      actual: statusOf(restored),
    }, restored);
  },
  async readBack(_model, real) {
    const data = real.data.get(DATA) as BenefitsData;
    await readProduct(real, data.productId, 'read back: the product');
  },
};
