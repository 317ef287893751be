import http from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerFactory, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { linkExtrasSteps } from './http/link-extras-steps.js';
import { passwordStepDeps } from './http/password-step-deps.js';
import type { AppDeps } from './deps.js';
import { clientAddressOf, trustedHop, visitorAddressOf, type TrustedHop } from './http/client-address.js';
import type { RoutingDeps } from './http/routing-step.js';
import { remembered } from './http/remembered.js';
import { ConnectionDrain } from './http/connection-drain.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerStrictJsonParser } from './http/json-body-parser.js';
import { LinkJson, LinkV1Json } from './http/link-json.js';
import { openApiOptions } from './http/openapi.js';
import { registerRateLimits } from './http/rate-limit.js';
import { authGuards, requireDeclaredScopes } from './http/auth.js';
import type { InstancePolicy, RouteContext } from './http/route-context.js';
import { shortUrls } from './core/short-urls.js';
import { RedirectResponder } from './http/redirect-responder.js';
import { RedirectRateLimit } from './http/redirect-rate-limit.js';
import { admitRequest } from './http/request-target.js';
import { ProblemJson } from './http/schemas.js';
import { createValidatorCompiler } from './http/validation.js';
import { registerHealthRoutes } from './http/routes/health-routes.js';
import { registerInstanceRoutes } from './http/routes/instance-routes.js';
import { registerAuthRoutes } from './http/routes/auth-routes.js';
import { registerOidcRoutes } from './http/routes/oidc-routes.js';
import { registerWorkspaceRoutes } from './http/routes/workspace-routes.js';
import { registerWebhookRoutes } from './http/routes/webhook-routes.js';
import { registerPublicLinkRoutes } from './http/routes/public-link-routes.js';
import { registerLinkRoutes } from './http/routes/link-routes.js';
import { registerBulkLinkRoutes } from './http/routes/bulk-link-routes.js';
import { registerTagRoutes, TagJson } from './http/routes/tag-routes.js';
import { registerWorkspaceLinkRoutes } from './http/routes/workspace-link-routes.js';
import { registerDomainRoutes } from './http/routes/domain-routes.js';
import { registerRedirectRoutes } from './http/routes/redirect-routes.js';
import { registerLinkFormRoutes } from './http/routes/link-form-routes.js';
import { registerAdminCleanupRoutes } from './http/routes/admin-cleanup-routes.js';
import { registerAdminRoutes } from './http/routes/admin-routes.js';
import { registerStatsRoutes } from './http/routes/stats-routes.js';
import { registerVisitExportRoutes } from './http/routes/visit-export-routes.js';
import { registerLinkShareRoutes } from './http/routes/link-share-routes.js';
import { registerImportRoutes } from './http/routes/import-routes.js';
import { registerUiRoutes } from './http/routes/ui-routes.js';
import { loadUiBuild, type UiBuild } from './http/ui-assets.js';
import { disabledLinkResponses, failureResponses } from './http/redirect-pages.js';
import { registerCompression } from './http/compression.js';
import { registerHtmlSecurityHeaders, SWAGGER_UI_CSP } from './http/security-headers.js';
import { registerSessionCookie } from './http/session-cookie.js';
import { createLogging } from './logging/logger.js';
import { requestIdOf } from './logging/request-id.js';
import { lazyChildLoggerFactory } from './logging/request-logger.js';
import { registerMetrics } from './http/metrics-routes.js';
import { registerRequestIdHeader } from './http/request-id-header.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  /** The process's logger (src/logging); by default one on stdout at the configured level. */
  readonly logger?: FastifyBaseLogger;
  /** Shutdown's drain flag; main.ts keeps it to drain the server on SIGTERM. */
  readonly drain?: ConnectionDrain;
}

/**
 * Short-code paths are answered before Fastify routes anything: this is the hot path, and
 * routing, hooks and serialization would cost a third of its throughput. Everything else,
 * including the same paths under `app.inject`, goes through Fastify.
 */
function redirectFirst(responder: RedirectResponder, drain: ConnectionDrain): FastifyServerFactory {
  return (fastifyHandler) => {
    const server = http.createServer({ ServerResponse: drain.responseClass() }, (req, res) => {
      if (!admitRequest(req, res)) return;
      if (req.method === 'GET' || req.method === 'HEAD') {
        const code = RedirectResponder.codeOf(req.url);
        if (code !== undefined) return responder.respond(code, req, res);
        if (req.url === '/' && responder.respondRoot(req, res)) return;
      }
      fastifyHandler(req, res);
    });
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    return server;
  };
}

const recipientStylesheet = (ui: UiBuild | undefined) => ui?.recipientStylesheetVersion && `/page.css?v=${ui.recipientStylesheetVersion}`;

/** How people sign in, beside what strangers may do (ADR 0034): without password sign-in there is no password registration either. */
function instancePolicy(config: AppDeps['config']): InstancePolicy {
  const { passwordLogin, oidc } = config.signIn;
  return {
    registrationAllowed: config.instance.registrationAllowed && passwordLogin,
    anonymousLinksAllowed: config.instance.anonymousLinksAllowed,
    passwordLogin,
    singleSignOnName: oidc?.name,
  };
}

/** The hot path's responder, with every per-request choice (rate limit, debug line) made once here (ADR 0006, ADR 0018). */
function redirectResponder(deps: AppDeps, logger: FastifyBaseLogger, ui: UiBuild | undefined): RedirectResponder {
  const { config } = deps;
  const stylesheet = recipientStylesheet(ui);
  const trusted = trustedHop(config.trustProxy);
  return new RedirectResponder({
    resolver: deps.redirects.resolver,
    domain: deps.redirects.domain,
    hosts: deps.redirects.hosts,
    strictHost: config.domains.strictHosts ? config.shortDomain : undefined,
    clock: deps.clock,
    permanentStatus: config.redirect.permanentStatus,
    temporaryStatus: config.redirect.temporaryStatus,
    maxAgeSeconds: config.redirect.maxAgeSeconds,
    rateLimit: config.rateLimit.redirectsPerMinute > 0
      ? new RedirectRateLimit(config.rateLimit.redirectsPerMinute, deps.clock, clientAddressOf(trusted))
      : undefined,
    onError: (error, reqId) => logger.error({ err: error, reqId }, 'redirect lookup failed'),
    recordVisit: deps.redirects.recordVisit,
    visitorAddress: config.analytics.privacy === 'standard' ? visitorAddressOf(trusted) : undefined,
    metrics: deps.server.metrics?.redirects,
    debugLog: logger.level === 'debug' || logger.level === 'trace' ? (fields, message) => logger.debug(fields, message) : undefined,
    failures: failureResponses({ stylesheet, notFoundRedirectUrl: config.redirect.notFoundRedirectUrl, expiredRedirectUrl: config.redirect.expiredRedirectUrl }),
    disabledResponse: disabledLinkResponses({ stylesheet }),
    extrasSteps: linkExtrasSteps({
      stylesheet, baseUrl: config.baseUrl, clickLimits: deps.redirects.clickLimits, routing: routingDeps(deps, trusted),
      password: passwordStepDeps({
        hasher: deps.accounts.hasher, unlockKey: deps.accounts.tokens.keyFor('link-unlock'), baseUrl: config.baseUrl, clock: deps.clock, clientOf: clientAddressOf(trusted),
      }),
    }),
  });
}

/** What routes and variants read of a request (ADR 0031): who the client is believed to be, as TRUST_PROXY says. */
function routingDeps(deps: AppDeps, trusted: TrustedHop | false): RoutingDeps {
  const { countryOf, saltOf } = deps.redirects;
  const addressOf = clientAddressOf(trusted);
  const countryOfAddress = countryOf && remembered(10_000, countryOf);
  return {
    countryOf: countryOfAddress && ((req) => countryOfAddress(addressOf(req))),
    visitorAddress: deps.config.analytics.privacy === 'standard' ? visitorAddressOf(trusted) : undefined,
    saltOf,
  };
}

/** Every API route module, each with its own module's services and what every route shares. */
function registerApiRoutes(app: FastifyInstance, deps: AppDeps, context: RouteContext, drain: ConnectionDrain, stylesheet: string | undefined): void {
  const { config } = deps;
  const importSettings = { imports: config.imports, maxUploadBytes: config.links.importMaxBytes, dataDir: config.dataDir };
  registerHealthRoutes(app, deps.server.readiness);
  registerInstanceRoutes(app, context.instance);
  registerPublicLinkRoutes(app, deps.links.anonymous, context);
  registerLinkRoutes(app, deps.links.owned, context);
  registerBulkLinkRoutes(app, deps.links.owned, deps.links.transfer, context);
  registerWorkspaceLinkRoutes(app, deps.links.owned, context);
  registerTagRoutes(app, deps.links.owned, context);
  registerDomainRoutes(app, deps.links.domains, deps.redirects.hosts, context);
  registerAuthRoutes(app, deps.accounts, context);
  if (deps.singleSignOn) registerOidcRoutes(app, deps.singleSignOn, context, { stylesheet });
  registerWorkspaceRoutes(app, deps.accounts, context);
  registerWebhookRoutes(app, deps.webhooks, context);
  registerAdminCleanupRoutes(app, deps.cleanup, context);
  registerAdminRoutes(app, deps.admin, context);
  registerStatsRoutes(app, deps.stats, context);
  registerVisitExportRoutes(app, deps.stats, context);
  registerLinkShareRoutes(app, deps.stats, context);
  registerImportRoutes(app, deps.links.transfer, importSettings, context, drain);
}

export async function buildApp(deps: AppDeps, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = deps;
  const drain = options.drain ?? new ConnectionDrain();
  const logger = options.logger ?? createLogging(config.logLevel).logger;
  const ui = loadUiBuild();
  const responder = redirectResponder(deps, logger, ui);
  const app = Fastify({
    loggerInstance: logger,
    genReqId: (req) => requestIdOf(req.headers),
    // A request's child logger is made when it first writes a line, not for every request.
    childLoggerFactory: lazyChildLoggerFactory as unknown as FastifyServerOptions['childLoggerFactory'],
    trustProxy: trustedHop(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: 200 },
    serverFactory: redirectFirst(responder, drain),
  });
  app.setValidatorCompiler(createValidatorCompiler());
  app.removeContentTypeParser('text/plain'); // the API speaks JSON only: anything else is a 415
  registerStrictJsonParser(app);
  app.addSchema(ProblemJson);
  app.addSchema(LinkJson);
  app.addSchema(LinkV1Json);
  app.addSchema(TagJson);
  registerErrorHandling(app);
  registerRequestIdHeader(app);
  if (deps.server.metrics) registerMetrics(app, deps.server.metrics, config.metrics.token);
  registerHtmlSecurityHeaders(app);
  await registerCompression(app);
  await registerRateLimits(app, config.rateLimit.apiPerMinute, deps.server.rateLimitStore);
  await registerSessionCookie(app);
  await app.register(swagger, openApiOptions(config.baseUrl));
  // The docs page keeps Swagger UI's own policy (it needs inline styles); no request ever leaves for its online validator.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: SWAGGER_UI_CSP, uiConfig: { validatorUrl: null } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Each route module gets its own module's services and what every route shares.
  const instance = instancePolicy(config);
  const urls = shortUrls(config.baseUrl, (key) => deps.redirects.hosts.hostnameOf(key));
  const context: RouteContext = { baseUrl: config.baseUrl, urls, clock: deps.clock, rateLimit: config.rateLimit, instance, guards: authGuards(deps.accounts) };
  requireDeclaredScopes(app, context.guards);
  registerApiRoutes(app, deps, context, drain, recipientStylesheet(ui));
  registerUiRoutes(app, ui, (req, res) => responder.respondRoot(req, res));
  registerRedirectRoutes(app, responder, config.redirect);
  registerLinkFormRoutes(app, responder);
  return app;
}
