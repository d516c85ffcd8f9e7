import type { Check } from '../core/types.js';
import { brief, valuesAtPath } from './support.js';

/** A field that one API version has and the other has not, and where the responses show it. */
export interface VersionField {
  field: string;
  /** The version whose responses carry the field (its document requires it there). */
  presentIn: string;
  /** The version whose responses do not carry it. */
  absentIn: string;
  /** What carries it, for messages (`product`). */
  carrier: string;
  /**
   * Where each operation's 2xx body holds a carrier: a {@link valuesAtPath} path, `''` for the
   * body itself.
   */
  locations: Readonly<Record<string, string>>;
}

/**
 * The fields that differ between the versions: products carry is_deletable in 2026-10 and not in
 * 2026-04 (the products of the product endpoints and those embedded in subscriptions).
 * @see spec/rules.yaml versioning.is_deletable; docs/decisions.md (Spec: is_deletable)
 */
export const VERSION_FIELDS: readonly VersionField[] = [
  {
    field: 'is_deletable',
    presentIn: '2026-10',
    absentIn: '2026-04',
    carrier: 'product',
    locations: { 'products:list': 'items[]', 'products:update_benefits': '', 'subscriptions:list': 'items[].product' },
  },
];

/** The version fields the check judges on an operation of a document of `version`: those the version has or has not. */
function judgedFields(version: string, operationId: string): VersionField[] {
  return VERSION_FIELDS.filter((f) => (f.absentIn === version || f.presentIn === version) && operationId in f.locations);
}

/** The objects at a location of a body (`''`: the body). */
function carriersAt(body: unknown, location: string): Record<string, unknown>[] {
  const values = location === '' ? [body] : valuesAtPath(body, location);
  return values.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
}

/**
 * A response of the version the run checks against carries its own version's fields and no field
 * of another version: in 2026-04 a product has no is_deletable, whatever its value (null included);
 * in 2026-10 every product it applies to carries it. The 2026-10 schema requires it too, but this
 * check judges it itself rather than hand it to response_schema_conformance, which a run may not
 * select; unknown fields are otherwise allowed, which is why a schema cannot say "absent".
 * Documents of other versions are not judged.
 * @see spec/rules.yaml versioning.is_deletable ("fields such as is_deletable on products")
 */
export const versionFields: Check = {
  id: 'version_fields',
  title: 'Field of another API version',
  severity: 'medium',
  rule: 'versioning.is_deletable',
  layer: 'api',
  evidence: 'exchange',
  conformanceClass: 'versions',
  level: 'must',
  needs: 'exchange',
  appliesTo: ({ spec, operation }) => {
    if (!VERSION_FIELDS.some((f) => operation.operationId in f.locations)) return 'its responses hold no record whose fields differ between API versions';
    if (judgedFields(spec.version, operation.operationId).length > 0) return true;
    return `the document's version ${JSON.stringify(spec.version)} is none whose fields the API description compares`;
  },
  run(ctx, exchange) {
    const response = exchange.response;
    if (!response || response.status < 200 || response.status >= 300 || response.json === undefined) return [];
    return judgedFields(ctx.spec.version, exchange.operationId).flatMap((f) => {
      if (f.presentIn === ctx.spec.version) {
        const lacking = carriersAt(response.json, f.locations[exchange.operationId]!).filter((c) => !Object.hasOwn(c, f.field));
        if (lacking.length === 0) return [];
        return [{
          kind: 'version_field_missing',
          title: 'Field of the API version missing',
          message: `${lacking.length} ${f.carrier}(s) of this ${f.presentIn} response lack ${f.field} (${brief(lacking.map((c) => c.id), 120)}), a field every ${f.presentIn} ${f.carrier} carries.`,
          expected: `${f.field} on every ${f.carrier} in version ${f.presentIn}`,
          actual: lacking.slice(0, 5).map((c) => ({ id: c.id })),
        }];
      }
      const carrying = carriersAt(response.json, f.locations[exchange.operationId]!).filter((c) => Object.hasOwn(c, f.field));
      if (carrying.length === 0) return [];
      const ids = carrying.map((c) => c.id);
      return [{
        kind: 'field_of_other_version',
        title: 'Field of another API version',
        message: `${carrying.length} ${f.carrier}(s) of this ${f.absentIn} response carry ${f.field} (${brief(ids, 120)}), a field of version ${f.presentIn}; ${f.absentIn} ${f.carrier}s do not have it.`,
        expected: `no ${f.field} in version ${f.absentIn}`,
        actual: carrying.slice(0, 5).map((c) => ({ id: c.id, [f.field]: c[f.field] })),
      }];
    });
  },
};
