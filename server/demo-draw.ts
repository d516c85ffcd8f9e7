/**
 * The seeded drawing helpers of the demo dataset: every value comes from one seeded faker,
 * consumed in a fixed order, so the same seed gives the same data. Timestamps count back from
 * {@link DEMO_NOW_MICROS}, never from the clock.
 * @see docs/design.md (Reference server: one seed for ids, timestamps and demo data)
 */
import type { Faker } from '@faker-js/faker';
// The English locale entry point loads one locale; the package's main entry loads all of them (a
// quarter of a second at every start).
import { faker as englishFaker } from '@faker-js/faker/locale/en';

/**
 * A faker of its own with the English and base locales (what `new Faker({locale: [en, base]})`
 * gives), seeded.
 * @param seed a number or the numbers faker's `seed()` accepts
 */
export function seededFaker(seed: number | number[]): Faker {
  const FakerClass = englishFaker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
  const f = new FakerClass({ locale: englishFaker.rawDefinitions });
  f.seed(seed);
  return f;
}
import { formatTimestamp } from './timestamps.js';

/** The instant the demo data is "now": 2026-03-01T10:00:00Z, in epoch microseconds. */
export const DEMO_NOW_MICROS = Date.UTC(2026, 2, 1, 10, 0, 0) * 1000;

/** Draws from one seeded faker; every helper consumes the generator in a fixed order. */
export class Draw {
  readonly f: Faker;
  constructor(f: Faker) {
    this.f = f;
  }
  /** A version 4 UUID. */
  uuid(): string {
    return this.f.string.uuid();
  }
  /** true with the given probability (0..1). */
  chance(probability: number): boolean {
    return this.f.datatype.boolean({ probability });
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return this.f.number.int({ min, max });
  }
  /** One of the values. */
  pick<T>(values: readonly T[]): T {
    return this.f.helpers.arrayElement(values);
  }
  /** One of the values, by weight. */
  weighted<T>(entries: [T, number][]): T {
    return this.f.helpers.weightedArrayElement(entries.map(([value, weight]) => ({ value, weight })));
  }
  /** Between 0 and `max` distinct values. */
  some<T>(values: readonly T[], max: number): T[] {
    return this.f.helpers.arrayElements(values, { min: 0, max: Math.min(max, values.length) });
  }
  /**
   * An instant in [from, to], epoch microseconds. An empty range (from after to, as for a record
   * made within the last hour when a later event must follow it) gives `to` and draws nothing, so
   * every seed builds and the data of every other draw is unchanged.
   */
  between(from: number, to: number): number {
    if (Math.floor(from) > Math.floor(to)) return Math.floor(to);
    return this.int(Math.floor(from), Math.floor(to));
  }
  /** A stored timestamp in [from, to]. */
  at(from: number, to: number): string {
    return formatTimestamp(this.between(from, to));
  }
  /** Null, or a stored timestamp in [from, now], with the given probability of being set. */
  maybeAfter(from: number, probability: number): string | null {
    return this.chance(probability) ? this.at(from, Math.max(from, DEMO_NOW_MICROS)) : null;
  }
}
