// What the negative-mutation tests share: a query parameter builder and the validators a server
// applies (query text coerced to the schema's types, as a server parses it; bodies as they are).
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import type { Parameter } from '../../../core/spec/load.js';

const addFormats = ajvFormats.default as unknown as (a: Ajv2020) => Ajv2020;

/** Validates query values, coercing text to the schema's types (a server parses `?page=2` as 2). */
export const queryAjv = addFormats(new Ajv2020({ strict: false, coerceTypes: 'array' }));

/** Validates JSON (or parsed form) bodies as they are. */
export const bodyAjv = addFormats(new Ajv2020({ strict: false, discriminator: false }));

/** A query parameter of the given schema. */
export const param = (name: string, schema: Record<string, unknown>): Parameter => ({ name, in: 'query', required: false, schema, style: 'form', explode: true });
