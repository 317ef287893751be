import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Fastify's default Ajv strips unknown fields and coerces types everywhere. We want bodies checked
 * strictly (an unknown field or a number where a string belongs is a 400), while query strings and
 * path parameters, which are always text, still coerce.
 */
function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: true, strict: false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
