/**
 * Loading a data file into a store: validated against `spec/data.schema.json`, its keys and ids
 * checked unique and its references resolved, then every record made by the store's own functions
 * (the control API's: server/control-records.ts, placeSubscription, the webhook endpoints'), so
 * that every rule the API relies on holds (a subscription of a one-time product, a price of another
 * organization's product, a duplicate id: each refused). The records are made in a store of their
 * own, which the caller moves into the live one only when all of them were made: nothing is ever
 * half-loaded. Loading emits no event and sends no webhook: the file is a state, not a history.
 * @see docs/data-file.md; spec/data.schema.json; docs/decisions.md ("A data file is loaded into a store of its own")
 */
import { nearest } from '../../core/suggest.js';
import type { DemoTokenName } from '../auth.js';
import { placeSubscription, type SubscriptionPlacement } from '../clock/lifecycle.js';
import {
  createBenefit,
  createCustomer,
  createOrganization,
  createPrice,
  createProduct,
  grantLicenseKey,
  recordOrder,
  registerOrganizationToken,
  type BenefitInput,
  type CustomerInput,
  type LicenseKeyInput,
  type OrderInput,
  type OrganizationInput,
  type PriceInput,
  type ProductInput,
} from '../control-records.js';
import type { DemoData } from '../demo-data.js';
import type { MachineContext } from '../events.js';
import { resolveFaults } from '../faults.js';
import { fail, ok, type Result } from '../result.js';
import { createStore, type Store } from '../store.js';
import { createWebhookEndpoint, type WebhookEndpointInput } from '../webhooks/endpoints.js';
import { issueDataRoleTokens } from './identity.js';
import { instantTimestamp } from './instant.js';
import { fieldPath, schemaProblems, type DataPath, type DataProblem, type DataText } from './read.js';

/** Tax rate of the orders a data file gives, in basis points (20 %, as the control API's and the test clock's). */
export const DATA_ORDER_TAX_BASIS_POINTS = 2000;

/** The record kinds of a data file, in the order they are made (a record only names kinds made before it). */
export const DATA_KINDS = ['benefits', 'products', 'prices', 'customers', 'subscriptions', 'orders', 'license_keys', 'webhook_endpoints'] as const;

/** A record kind of a data file, organizations included. */
export type DataKind = 'organizations' | (typeof DATA_KINDS)[number];

/** The fields of each kind that name a record of another kind, and that kind (a list field names several). */
const REFERENCES: Partial<Record<DataKind, Record<string, DataKind>>> = {
  products: { benefits: 'benefits' },
  prices: { product: 'products' },
  subscriptions: { customer: 'customers', product: 'products' },
  orders: { customer: 'customers', product: 'products', subscription: 'subscriptions' },
  license_keys: { customer: 'customers', benefit: 'benefits' },
};

/** The file's instant fields, by kind. */
const INSTANTS: Record<DataKind, readonly string[]> = {
  organizations: ['created_at'],
  benefits: ['created_at'],
  products: ['created_at'],
  prices: ['created_at'],
  customers: ['created_at'],
  subscriptions: ['started_at', 'current_period_start', 'current_period_end', 'trial_end', 'ended_at'],
  orders: ['created_at'],
  license_keys: ['created_at', 'expires_at'],
  webhook_endpoints: [],
};

/** The singular of a kind, for messages. */
const SINGULAR: Record<DataKind, string> = {
  organizations: 'organization',
  benefits: 'benefit',
  products: 'product',
  prices: 'price',
  customers: 'customer',
  subscriptions: 'subscription',
  orders: 'order',
  license_keys: 'license key',
  webhook_endpoints: 'webhook endpoint',
};

/** A store function's input field, as the file names it. */
const FILE_FIELDS: Record<string, string> = {
  product_id: 'product',
  customer_id: 'customer',
  subscription_id: 'subscription',
  benefit_id: 'benefit',
  benefit_ids: 'benefits',
};

/** One record of the file. */
interface Entry {
  kind: DataKind;
  /** Index of its organization in `organizations`. */
  organization: number;
  path: DataPath;
  record: Record<string, unknown>;
  /** Its id in the store, once made. */
  id?: string;
}

/** A loaded data file: the store that holds its records (and the harness's role tokens), what the server derives from it, and counts for the banner. */
export interface LoadedData {
  /** A new store with the records; the caller moves them into the live store (store.ts moveStoreContents) or serves it as it is. */
  store: Store;
  /** The ids the harness's roles and the control API's defaults use, and the role token strings (server/data/identity.ts). */
  seeding: { demo: DemoData; tokens: Record<DemoTokenName, string> };
  /** Records made, by kind (organizations and tokens included). */
  counts: Record<DataKind | 'tokens', number>;
  /** The tokens the file declares, with their organization's name, for the banner. */
  tokens: { organization: string; token: string }[];
}

/** Options of {@link loadData}. */
export interface LoadDataOptions {
  /** Seed of the generated ids (default 1): the same file and seed give the same ids. */
  seed?: number;
  /** The base clock (default the system clock); relative instants count from it. */
  clock?: () => Date;
}

/**
 * Loads a read data file into a new store.
 * @returns the loaded data; or its problems: every schema problem, in the order of the file, or
 *   else the first problem of keys, ids, references or the store's rules (each one line with
 *   {@link describeProblem}). Nothing outside the new store is touched either way.
 * @see docs/data-file.md
 */
export function loadData(text: DataText, options: LoadDataOptions = {}): Result<LoadedData, DataProblem[]> {
  const schema = schemaProblems(text);
  if (schema.length > 0) return fail(schema);
  const problem = (path: DataPath, field: string | undefined, message: string): DataProblem => {
    const position = field === undefined ? text.locate(path) : text.locate([...path, field]) ?? text.locate(path, field);
    return { file: text.file, ...(position ? { position } : {}), field: fieldPath(field === undefined ? path : [...path, field]), message };
  };
  const line = (path: DataPath) => {
    const position = text.locate(path);
    return position ? ` (line ${position.line})` : '';
  };

  const entries = collect(text.value as { organizations: Record<string, unknown>[] });
  const byKey = new Map<string, Entry>();
  const byId = new Map<string, Entry>();
  // In the order of the file: of two records with one id, the later one is the mistake.
  const at = (entry: Entry) => {
    const position = text.locate(entry.path);
    return position ? position.line * 1e6 + position.column : 0;
  };
  for (const entry of [...entries].sort((x, y) => at(x) - at(y))) {
    const key = recordKey(entry);
    const { id } = entry.record as { id?: string };
    if (key !== undefined) {
      const other = byKey.get(`${entry.kind}\u0000${key}`);
      if (other) return fail([problem(entry.path, 'key', `the key ${key} is also the key of ${fieldPath(other.path)}${line(other.path)}: keys are unique among the ${entry.kind.replace('_', ' ')}`)]);
      byKey.set(`${entry.kind}\u0000${key}`, entry);
    }
    if (id !== undefined) {
      const other = byId.get(id.toLowerCase());
      if (other) return fail([problem(entry.path, 'id', `duplicate id ${id.toLowerCase()}: it is also the id of ${fieldPath(other.path)}${line(other.path)}`)]);
      byId.set(id.toLowerCase(), entry);
    }
  }
  const find = (kind: DataKind, ref: string): Entry | undefined => {
    const keyed = byKey.get(`${kind}\u0000${ref}`);
    if (keyed) return keyed;
    const identified = byId.get(ref.toLowerCase());
    return identified?.kind === kind ? identified : undefined;
  };
  // Every reference resolves before anything is made: an unknown one is the file's mistake, not a store rule.
  for (const entry of entries) {
    for (const [field, kind] of Object.entries(REFERENCES[entry.kind] ?? {})) {
      const value = entry.record[field];
      const refs = Array.isArray(value) ? (value as string[]) : value === undefined ? [] : [value as string];
      for (const [i, ref] of refs.entries()) {
        if (find(kind, ref)) continue;
        const path = Array.isArray(value) ? [...entry.path, field, i] : [...entry.path, field];
        const known = entries.filter((e) => e.kind === kind).map((e) => recordKey(e) ?? (e.record.id as string | undefined)).filter((k): k is string => k !== undefined);
        const near = nearest(ref, known);
        const other = byId.get(ref.toLowerCase());
        const hint = other ? `: it is the id of ${fieldPath(other.path)}, a ${SINGULAR[other.kind]}` : near ? ` (did you mean ${near}?)` : known.length > 0 ? `; the file's ${kind.replace('_', ' ')} are ${known.slice(0, 8).join(', ')}${known.length > 8 ? ', ...' : ''}` : `; the file has no ${kind.replace('_', ' ')} with a key or an id`;
        const position = text.locate(path);
        return fail([{ file: text.file, ...(position ? { position } : {}), field: fieldPath(path), message: `unknown ${SINGULAR[kind]} ${ref}${hint}` }]);
      }
    }
  }

  const store = createStore({ seed: options.seed ?? 1, ...(options.clock ? { clock: options.clock } : {}) });
  const ctx: MachineContext = { store, apiVersion: '2026-10', faults: resolveFaults([]) };
  const nowMs = store.clock().getTime();
  const idOf = (kind: DataKind, ref: string) => find(kind, ref)!.id!;
  const organizations: Entry[] = entries.filter((entry) => entry.kind === 'organizations');
  const tokens: LoadedData['tokens'] = [];
  const counts = Object.fromEntries([...['organizations', 'tokens'], ...DATA_KINDS].map((kind) => [kind, 0])) as LoadedData['counts'];

  for (const entry of [...organizations, ...DATA_KINDS.flatMap((kind) => entries.filter((e) => e.kind === kind))]) {
    const fields: Record<string, unknown> = { ...entry.record };
    for (const field of INSTANTS[entry.kind]) {
      if (typeof fields[field] !== 'string') continue;
      const resolved = instantTimestamp(fields[field], nowMs);
      if (!resolved.ok) return fail([problem(entry.path, field, resolved.error)]);
      fields[field] = resolved.value;
    }
    const organizationId = organizations[entry.organization]?.id ?? '';
    const made = make(ctx, entry, fields, organizationId, idOf);
    if (!made.ok) {
      const field = made.error.field === undefined ? undefined : (FILE_FIELDS[made.error.field] ?? made.error.field);
      const known = field !== undefined && (field in entry.record || field === 'id');
      return fail([problem(entry.path, known ? field : undefined, made.error.message)]);
    }
    entry.id = made.value;
    counts[entry.kind]++;
    if (entry.kind === 'organizations') {
      for (const [i, token] of ((entry.record.tokens ?? []) as { token: string; scopes?: string[] }[]).entries()) {
        const registered = registerOrganizationToken(store, made.value, token.token, token.scopes);
        if (!registered.ok) return fail([problem([...entry.path, 'tokens', i], registered.error.field, registered.error.message)]);
        tokens.push({ organization: entry.record.name as string, token: token.token });
        counts.tokens++;
      }
    }
  }
  const seeding = issueDataRoleTokens(store);
  return ok({ store, seeding, counts, tokens });
}

/** The file's records, organizations first, each with its path and organization. */
function collect(file: { organizations: Record<string, unknown>[] }): Entry[] {
  const entries: Entry[] = [];
  file.organizations.forEach((organization, index) => {
    entries.push({ kind: 'organizations', organization: index, path: ['organizations', index], record: organization });
    for (const kind of DATA_KINDS) {
      const records = (organization[kind] ?? []) as Record<string, unknown>[];
      records.forEach((record, i) => entries.push({ kind, organization: index, path: ['organizations', index, kind, i], record }));
    }
  });
  return entries;
}

/** The file's own name of a record (`key`), by which others name it; a license key's `key` is the key itself, not a name. */
function recordKey(entry: Entry): string | undefined {
  return entry.kind === 'license_keys' ? undefined : (entry.record.key as string | undefined);
}

/** A refusal of a store function: its message and the input field it names. */
interface Refusal {
  message: string;
  field?: string;
}

/** The fields of a record without the file's own (`key`) and its references (passed resolved). */
function plain(fields: Record<string, unknown>, ...drop: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !['key', 'tokens', ...drop].includes(name) && !(DATA_KINDS as readonly string[]).includes(name)));
}

/** Makes one record with the store's function for its kind. */
function make(ctx: MachineContext, entry: Entry, fields: Record<string, unknown>, organizationId: string, idOf: (kind: DataKind, ref: string) => string): Result<string, Refusal> {
  const { store } = ctx;
  const made = <T extends { id: string }>(result: Result<T, Refusal>): Result<string, Refusal> => (result.ok ? ok(result.value.id) : result);
  const ref = (field: string, kind: DataKind) => (typeof fields[field] === 'string' ? idOf(kind, fields[field]) : undefined);
  switch (entry.kind) {
    case 'organizations':
      return made(createOrganization(store, plain(fields) as unknown as OrganizationInput));
    case 'benefits':
      return made(createBenefit(store, organizationId, plain(fields) as unknown as BenefitInput));
    case 'products':
      return made(createProduct(ctx, organizationId, { ...plain(fields, 'benefits'), benefit_ids: ((fields.benefits ?? []) as string[]).map((benefit) => idOf('benefits', benefit)) } as ProductInput));
    case 'prices':
      return made(createPrice(store, organizationId, ref('product', 'products')!, plain(fields, 'product') as unknown as PriceInput));
    case 'customers':
      return made(createCustomer(ctx, organizationId, plain(fields) as CustomerInput));
    case 'subscriptions': {
      const customerId = ref('customer', 'customers')!;
      const customer = store.customers.get(customerId)!;
      if (customer.organization_id !== organizationId) return fail({ message: `Customer ${customerId} belongs to another organization (${customer.organization_id}): a subscription is listed under its customer's organization.`, field: 'customer' });
      return made(placeSubscription(ctx, { ...plain(fields, 'customer', 'product'), customer_id: customerId, product_id: ref('product', 'products')! } as SubscriptionPlacement));
    }
    case 'orders': {
      const customerId = ref('customer', 'customers')!;
      if (store.customers.get(customerId)!.organization_id !== organizationId) return fail({ message: `Customer ${customerId} belongs to another organization: an order is listed under its customer's organization.`, field: 'customer' });
      const subscriptionId = ref('subscription', 'subscriptions');
      return made(recordOrder(ctx, {
        ...plain(fields, 'customer', 'product', 'subscription'),
        customer_id: customerId,
        product_id: ref('product', 'products')!,
        ...(subscriptionId !== undefined ? { subscription_id: subscriptionId } : {}),
        status: (fields.status as 'paid' | 'pending' | undefined) ?? 'paid',
        tax_basis_points: DATA_ORDER_TAX_BASIS_POINTS,
      } as OrderInput));
    }
    case 'license_keys': {
      const customerId = ref('customer', 'customers')!;
      if (store.customers.get(customerId)!.organization_id !== organizationId) return fail({ message: `Customer ${customerId} belongs to another organization: a license key is listed under its customer's organization.`, field: 'customer' });
      // Its `key` is the license key itself, kept.
      return made(grantLicenseKey(ctx, { ...plain(fields, 'customer', 'benefit'), ...(fields.key !== undefined ? { key: fields.key } : {}), customer_id: customerId, benefit_id: ref('benefit', 'benefits')! } as LicenseKeyInput));
    }
    case 'webhook_endpoints': {
      const created = createWebhookEndpoint(store, organizationId, { ...plain(fields), organization_id: organizationId } as unknown as WebhookEndpointInput);
      if (created.ok) return ok(created.value.id);
      // The endpoint functions name their field as the first word of the message (`url must be ...`).
      const field = /^(url|events|enabled|secret|name) /.exec(created.error.message)?.[1] ?? (/already has the id/.test(created.error.message) ? 'id' : undefined);
      return fail({ message: created.error.message, ...(field ? { field } : {}) });
    }
  }
}
