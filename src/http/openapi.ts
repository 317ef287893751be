import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import type { ApiKeyScope } from '../core/api-key-scopes.js';
import { SECURITY_SCHEMES } from './auth.js';

type RouteSchema = FastifySchema & { response?: Record<string, { description?: string; headers?: unknown }>; description?: unknown; 'x-api-key-scope'?: ApiKeyScope };

/** A HEAD route shares its GET route's schema, but answers without a body: its responses document headers only. */
function withoutBodies(schema: RouteSchema): RouteSchema {
  if (!schema.response) return schema;
  const response = Object.fromEntries(Object.entries(schema.response).map(([status, { description, headers }]) =>
    [status, { description, ...(headers !== undefined && { headers }), type: 'null' }]));
  return { ...schema, response };
}

/**
 * The scope an API key needs, where the route declares it (ADR 0032): in the description, and as
 * `x-api-key-scope` for tools (OpenAPI 3.0 lets only OAuth requirements list scopes).
 */
function withApiKeyScope(schema: RouteSchema, scope: ApiKeyScope): RouteSchema {
  const needs = `API keys need the \`${scope}\` scope.`;
  return { ...schema, 'x-api-key-scope': scope, description: schema.description === undefined ? needs : `${schema.description as string} ${needs}` };
}

/** The OpenAPI document at /openapi.json, generated from the route schemas. */
export function openApiOptions(baseUrl: string): FastifyDynamicSwaggerOptions {
  return {
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      info: { title: 'Linkforge', version: '0.1.0', description: 'Self-hosted URL shortener API. [Back to the Linkforge web UI](/) · [Your links](/app/dashboard)' },
      servers: [{ url: baseUrl }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: ({ schema, url, route }) => {
      const documented = route.method === 'HEAD' && schema ? withoutBodies(schema as RouteSchema) : schema;
      const scope = route.config?.apiKeyScope;
      return { schema: scope === undefined || !documented ? documented : withApiKeyScope(documented as RouteSchema, scope), url };
    },
  };
}
