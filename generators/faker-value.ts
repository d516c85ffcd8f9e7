/**
 * Realistic values from @faker-js/faker as fast-check arbitraries: a name, an email, an address
 * line, an amount in cents, chosen by the field's `format` or name. Faker is only ever a pure
 * function of a number drawn by fast-check (reseeded before every value), so one fast-check seed
 * gives the same values and a counterexample replays; shrinking goes through the plain
 * schema-derived arbitrary, which every realistic arbitrary falls back to and cross-shrinks to.
 * @see docs/architecture.md (Generators); docs/design.md (Parts: generators/, faker always seeded)
 * @see spec/rules.yaml conventions.money_in_cents; spec/openapi.yaml, schemas Customer (billing_address) and Address
 */
import fc from 'fast-check';
// The English locale alone: the package's main entry loads every locale (about 150 ms).
import { faker as english } from '@faker-js/faker/locale/en';
import type { Faker, Randomizer } from '@faker-js/faker';
import type { SchemaPredicate } from '../core/spec/schema-validator.js';

/**
 * mulberry32: a 32-bit generator whose seeding is one assignment. Faker's own Mersenne Twister
 * takes about 40 µs to seed, and every value here is drawn from a fresh seed.
 */
function mulberry32(): Randomizer {
  let state = 0;
  return {
    seed(seed) {
      state = (Array.isArray(seed) ? (seed[0] ?? 0) : seed) >>> 0;
    },
    next() {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

// A Faker of our own over the English definitions: the locale module exports only its instance, so
// the class is taken from it (importing the class from the main entry would load every locale).
const FakerClass = english.constructor as new (options: { locale: Faker['rawDefinitions']; randomizer: Randomizer }) => Faker;
const faker = new FakerClass({ locale: english.rawDefinitions, randomizer: mulberry32() });

/** The instants date-times are drawn between: 2020-01-01 and 2030-01-01, UTC. */
const FROM = '2020-01-01T00:00:00.000Z';
const TO = '2030-01-01T00:00:00.000Z';

/**
 * What each faker kind draws. Only functions that depend on the seed alone (no "now", no global
 * state besides the generator) appear here, so a value is a pure function of its seed.
 */
const DRAWS = {
  /** A person's name: `Edgar Trantow Sr.`. */
  full_name: (f: Faker) => f.person.fullName(),
  /** A lower-case email address. */
  email: (f: Faker) => f.internet.email().toLowerCase(),
  /** An https URL. */
  url: (f: Faker) => f.internet.url(),
  /** A version 4 UUID. */
  uuid: (f: Faker) => f.string.uuid(),
  /** An ISO 8601 UTC date-time with microseconds (the 2026-10 precision), 2020 to 2030. */
  date_time: (f: Faker) => f.date.between({ from: FROM, to: TO }).toISOString().replace('Z', `${f.string.numeric(3)}Z`),
  /** A city name. */
  city: (f: Faker) => f.location.city(),
  /** An ISO 3166-1 alpha-2 country code: `PY`. */
  country: (f: Faker) => f.location.countryCode('alpha-2'),
  /** A US state abbreviation: `OH`. */
  state: (f: Faker) => f.location.state({ abbreviated: true }),
  /** A US ZIP code: `36353-4029`. */
  postal_code: (f: Faker) => f.location.zipCode(),
  /** A street address: `76745 Bryana Club`. */
  line1: (f: Faker) => f.location.streetAddress(),
  /** A secondary address line: `Apt. 519`. */
  line2: (f: Faker) => f.location.secondaryAddress(),
  /** A product name: `Practical Marble Salad`. */
  product_name: (f: Faker) => f.commerce.productName(),
  /** A sentence of product description. */
  description: (f: Faker) => f.commerce.productDescription(),
  /** A file name with an extension. */
  file_name: (f: Faker) => f.system.fileName(),
  /** A media type: `video/3gpp`. */
  mime_type: (f: Faker) => f.system.mimeType(),
  /** A merchant's own customer identifier, like the document's examples: `cus_2yju69owc2vaq5`. */
  external_id: (f: Faker) => `cus_${f.string.alphanumeric({ length: 14, casing: 'lower' })}`,
  /** A lower-case slug: `practical-marble-salad`. */
  slug: (f: Faker) => f.helpers.slugify(f.commerce.productName()).toLowerCase(),
  /** An opaque token or client credential: 32 letters and digits. */
  token: (f: Faker) => f.string.alphanumeric(32),
  /** A lower-case ISO 4217 currency code, as the document's examples write them: `usd`. */
  currency: (f: Faker) => f.finance.currencyCode().toLowerCase(),
  /** A BCP 47 locale tag. */
  locale: (f: Faker) => f.helpers.arrayElement(['en', 'en-US', 'en-GB', 'fr-FR', 'de-DE', 'sv-SE', 'pt-BR']),
  /** A SHA-256 digest, lower-case hex. */
  sha256_hex: (f: Faker) => f.string.hexadecimal({ length: 64, casing: 'lower', prefix: '' }),
  /** A SHA-256 digest, base64. */
  sha256_base64: (f: Faker) => Buffer.from(f.string.hexadecimal({ length: 64, prefix: '' }), 'hex').toString('base64'),
  /** One lower-case English word (metadata keys and values). */
  word: (f: Faker) => f.word.noun().toLowerCase(),
  /** An amount in cents between 1.00 and 1000.00: `14419`. */
  amount_cents: (f: Faker) => Math.round(Number(f.commerce.price({ min: 1, max: 1000 })) * 100),
  /** A file size in bytes, up to 50 MB. */
  file_size: (f: Faker) => f.number.int({ min: 1, max: 50_000_000 }),
  /** A small count (seats, quantities): 1 to 25. */
  count: (f: Faker) => f.number.int({ min: 1, max: 25 }),
} satisfies Record<string, (f: Faker) => string | number>;

/** A kind of realistic value, named after what it holds (`email`, `amount_cents`). */
export type FakerKind = keyof typeof DRAWS;

/** Every faker kind, in declaration order. */
export const FAKER_KINDS = Object.keys(DRAWS) as FakerKind[];

/** The largest seed drawn: faker takes any 32-bit integer. */
const MAX_SEED = 0x7fffffff;

/**
 * The value of a kind for a seed: the same seed always gives the same value.
 * @param seed an integer in [0, 2^31 - 1]
 */
export function fakerDraw(kind: FakerKind, seed: number): string | number {
  faker.seed(seed);
  return DRAWS[kind](faker);
}

/** An arbitrary of the values of a kind; it draws a uniform seed, which shrinks towards 0 (not towards a shorter value). */
export function fakerArbitrary(kind: FakerKind): fc.Arbitrary<string | number> {
  return fc.noBias(fc.integer({ min: 0, max: MAX_SEED })).map((seed) => fakerDraw(kind, seed));
}

/**
 * Realistic values of a kind that stay valid: each faker value that `valid` refuses (too long for
 * a `maxLength`, outside a `minimum`, not matching a `pattern`) is replaced by a value of `plain`,
 * and now and then `plain` is used outright. Shrinking first tries `plain` (fast-check's cross
 * shrink), so counterexamples are as small as the plain arbitrary makes them.
 * @param plain the schema-derived arbitrary of the same field
 * @param valid the schema's predicate
 */
export function realisticArbitrary<T>(kind: FakerKind, plain: fc.Arbitrary<T>, valid: SchemaPredicate): fc.Arbitrary<T> {
  const realistic = fc
    .tuple(fc.noBias(fc.integer({ min: 0, max: MAX_SEED })), plain)
    .map(([seed, fallback]) => {
      const value = fakerDraw(kind, seed);
      return valid(value) ? (value as T) : fallback;
    });
  return fc.oneof({ withCrossShrink: true }, { weight: 1, arbitrary: plain }, { weight: 4, arbitrary: realistic });
}

/** What {@link fakerKindFor} looks at: the JSON type, the `format`, the property's name and its siblings' names. */
export interface FakerHint {
  type: 'string' | 'integer' | 'number';
  format?: string;
  /** The property (or, for array items and map values, the array's or map's) name. */
  name?: string;
  /** The names of the other properties of the same object (`mime_type` beside `name` says a file). */
  siblings?: readonly string[];
}

/** String kinds by exact property name. */
const STRING_NAMES: Readonly<Record<string, FakerKind>> = {
  email: 'email',
  billing_name: 'full_name',
  customer_name: 'full_name',
  full_name: 'full_name',
  city: 'city',
  country: 'country',
  state: 'state',
  postal_code: 'postal_code',
  line1: 'line1',
  line2: 'line2',
  description: 'description',
  external_id: 'external_id',
  slug: 'slug',
  mime_type: 'mime_type',
  currency: 'currency',
  locale: 'locale',
  checksum_sha256_hex: 'sha256_hex',
  checksum_sha256_base64: 'sha256_base64',
  client_id: 'token',
  client_secret: 'token',
  metadata: 'word',
};

/**
 * The faker kind for a field, or undefined when neither its format nor its name says what it
 * holds (then the plain schema-derived value is used).
 */
export function fakerKindFor(hint: FakerHint): FakerKind | undefined {
  const name = hint.name?.toLowerCase() ?? '';
  if (hint.type === 'integer') {
    if (/(^|_)amounts?$/.test(name)) return 'amount_cents';
    if (name === 'size') return 'file_size';
    if (name === 'seats' || name === 'quantity') return 'count';
    return undefined;
  }
  if (hint.type !== 'string') return undefined;
  switch (hint.format) {
    case 'email':
      return 'email';
    case 'uri':
    case 'url':
      return 'url';
    case 'uuid':
      return 'uuid';
    case 'date-time':
      return 'date_time';
  }
  if (hint.format !== undefined) return undefined;
  if (name in STRING_NAMES) return STRING_NAMES[name];
  if (name === 'name') {
    const siblings = new Set(hint.siblings ?? []);
    if (siblings.has('mime_type')) return 'file_name';
    if (siblings.has('email')) return 'full_name';
    return 'product_name';
  }
  if (name.endsWith('_email')) return 'email';
  if (name.endsWith('_url') || name.endsWith('_uri')) return 'url';
  if (name.endsWith('_currency')) return 'currency';
  if (name.endsWith('_token') || name === 'token') return 'token';
  return undefined;
}
