import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { challengeRecordName, CHALLENGE_PATH_PREFIX } from '../../core/custom-domain.js';
import type { CustomDomain } from '../../core/domain-ports.js';
import { addDomain } from '../../links/domains/add-domain.js';
import { deleteDomain } from '../../links/domains/delete-domain.js';
import type { DomainServices } from '../../links/domains/domain-services.js';
import { getDomain, listDomains } from '../../links/domains/list-domains.js';
import { updateDomain } from '../../links/domains/update-domain.js';
import { verifyDomain } from '../../links/domains/verify-domain.js';
import type { KnownHosts } from '../../links/domains/known-hosts.js';
import { registerDomainPublicRoutes } from './domain-public-routes.js';
import { JWT_OR_API_KEY_SECURITY, principalOf } from '../auth.js';
import { Id } from '../link-fields.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const RedirectUrl = Type.Union([Type.String({ maxLength: 65536 }), Type.Null()]);
const DomainJson = Type.Object({
  id: Type.Integer(),
  hostname: Type.String({ description: 'Lower-case, punycode for international names.' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified')]),
  verification: Type.Object({
    token: Type.String(),
    txt_record: Type.Object({ name: Type.String(), value: Type.String() }, { description: 'A DNS TXT record that proves control.' }),
    http_url: Type.String({ description: 'Or: point the hostname at this deployment, which then answers this address with the token.' }),
  }),
  verified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  root_redirect_url: Type.Union([Type.String(), Type.Null()], { description: 'Where `https://<hostname>/` sends visitors; null: the 404 page.' }),
  not_found_redirect_url: Type.Union([Type.String(), Type.Null()], { description: 'Where an unknown code on this domain sends visitors; null: the 404 page.' }),
  created_at: Type.String({ format: 'date-time' }),
});
const WorkspaceParams = Type.Object({ id: Id });
const DomainParams = Type.Object({ id: Id, domainId: Id });
const DOMAINS_PATH = '/api/v1/workspaces/:id/domains';
const DOMAIN_PATH = `${DOMAINS_PATH}/:domainId`;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
function domainToJson(domain: CustomDomain) {
  return {
    id: domain.id, hostname: domain.hostname, status: domain.status,
    verification: {
      token: domain.verificationToken,
      txt_record: { name: challengeRecordName(domain.hostname), value: domain.verificationToken },
      http_url: `http://${domain.hostname}${CHALLENGE_PATH_PREFIX}${domain.verificationToken}`,
    },
    verified_at: iso(domain.verifiedAt), root_redirect_url: domain.rootRedirectUrl, not_found_redirect_url: domain.notFoundRedirectUrl,
    created_at: iso(domain.createdAt)!,
  };
}

const config = { apiKeyScope: 'workspace:admin' as const };

/**
 * A workspace's custom domains (ADR 0036): owners and admins (and the workspace's `workspace:admin`
 * keys) only; and what custom domains answer without credentials (domain-public-routes.ts).
 */
export function registerDomainRoutes(app: FastifyInstance, domains: DomainServices, hosts: KnownHosts, context: RouteContext): void {
  registerDomainPublicRoutes(app, domains, hosts);
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const preHandler = context.guards.requireUserOrApiKey;
  const common = { tags: ['domains'], security: JWT_OR_API_KEY_SECURITY };

  typedApp.post(DOMAINS_PATH, {
    preHandler, config,
    schema: {
      ...common, operationId: 'addDomain', summary: 'Register a custom domain; it serves links once verified', params: WorkspaceParams,
      body: Type.Object({
        hostname: Type.String({ maxLength: 300, description: 'A public DNS name such as links.example.com.' }),
        root_redirect_url: Type.Optional(RedirectUrl), not_found_redirect_url: Type.Optional(RedirectUrl),
      }, { additionalProperties: false }),
      response: { 201: DomainJson, ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request, reply) => {
    const { hostname, root_redirect_url: rootRedirectUrl, not_found_redirect_url: notFoundRedirectUrl } = request.body;
    const domain = await addDomain(domains, principalOf(request), request.params.id, { hostname, rootRedirectUrl, notFoundRedirectUrl });
    reply.status(201).header('location', `/api/v1/workspaces/${request.params.id}/domains/${domain.id}`);
    return domainToJson(domain);
  });

  typedApp.get(DOMAINS_PATH, {
    preHandler, config,
    schema: { ...common, operationId: 'listDomains', summary: 'The workspace\'s custom domains', params: WorkspaceParams, response: { 200: Type.Object({ items: Type.Array(DomainJson) }), ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request) => ({ items: (await listDomains(domains, principalOf(request), request.params.id)).map(domainToJson) }));

  typedApp.get(DOMAIN_PATH, {
    preHandler, config,
    schema: { ...common, operationId: 'getDomain', summary: 'One custom domain', params: DomainParams, response: { 200: DomainJson, ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request) => domainToJson(await getDomain(domains, principalOf(request), request.params.id, request.params.domainId)));

  typedApp.patch(DOMAIN_PATH, {
    preHandler, config,
    schema: {
      ...common, operationId: 'updateDomain', summary: 'Set or clear the root and not-found redirects', params: DomainParams,
      body: Type.Object({ root_redirect_url: Type.Optional(RedirectUrl), not_found_redirect_url: Type.Optional(RedirectUrl) }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: DomainJson, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => {
    const { root_redirect_url: rootRedirectUrl, not_found_redirect_url: notFoundRedirectUrl } = request.body;
    return domainToJson(await updateDomain(domains, principalOf(request), request.params.id, request.params.domainId, { rootRedirectUrl, notFoundRedirectUrl }));
  });

  typedApp.delete(DOMAIN_PATH, {
    preHandler, config,
    schema: { ...common, operationId: 'deleteDomain', summary: 'Remove a custom domain; its links stop answering on it', params: DomainParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request, reply) => {
    await deleteDomain(domains, principalOf(request), request.params.id, request.params.domainId);
    return reply.status(204).send(null);
  });
  registerVerifyRoute(app, preHandler, domains);
}

/** `POST …/domains/{domainId}/verify`: the TXT record or the HTTP challenge, checked now. */
function registerVerifyRoute(app: FastifyInstance, preHandler: RouteContext['guards']['requireUserOrApiKey'], domains: DomainServices): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const common = { tags: ['domains'], security: JWT_OR_API_KEY_SECURITY };
  typedApp.post(`${DOMAIN_PATH}/verify`, {
    preHandler, config,
    schema: {
      ...common, operationId: 'verifyDomain', summary: 'Check the TXT record or the HTTP challenge now; 409 while neither shows the token', params: DomainParams,
      response: { 200: DomainJson, ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request) => domainToJson(await verifyDomain(domains, principalOf(request), request.params.id, request.params.domainId)));
}
