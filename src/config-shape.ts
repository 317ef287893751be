import type { TrustProxy } from './config-trust-proxy.js';

/** The OpenID Connect provider people sign in with (OIDC_*). */
export interface OidcSettings {
  /** Exactly as configured: the provider must name itself so in discovery, the callback and its ID tokens. */
  readonly issuer: string;
  /** Plain http on a loopback host: openid-client refuses it unless told otherwise. */
  readonly loopbackHttp: boolean;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The button says "Sign in with {name}". */
  readonly name: string;
  /** Members of any of these `groups` get the admin role at each sign-in, others lose it; undefined: roles are left alone. */
  readonly adminGroups: readonly string[] | undefined;
}

/**
 * What the application is configured with: typed, in the units the code uses (milliseconds,
 * bytes), frozen by `loadConfig` (config.ts), which is the only way to make one from the environment.
 */
export interface Config {
  readonly env: 'production' | 'development' | 'test';
  readonly port: number;
  readonly host: string;
  /** Server processes sharing the port (1: this process serves alone). */
  readonly workers: number;
  readonly baseUrl: string;
  /** Host (with port, if any) of BASE_URL: links to it are refused as loops. Links are stored under DEFAULT_DOMAIN. */
  readonly shortDomain: string;
  readonly database: { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };
  readonly dataDir: string;
  readonly redisUrl: string | undefined;
  readonly redis: {
    /** Prepended to every key and channel (src/cache/cache-keys.ts): deployments can share a Redis. */
    readonly keyPrefix: string;
    /** A Redis command slower than this fails, and the lookup goes on to the database. */
    readonly commandTimeoutMs: number;
  };
  readonly dbPoolMax: number;
  readonly dbPoolMin: number;
  /** PostgreSQL: the longest any statement may run (server side, and the client stops waiting too). */
  readonly dbStatementTimeoutMs: number;
  /** PostgreSQL: the longest a request waits for a connection (from the pool or a new one). */
  readonly dbConnectTimeoutMs: number;
  /** How long a write may wait for the database (a lock held elsewhere) before it is answered 503. */
  readonly dbWriteTimeoutMs: number;
  readonly logLevel: string;
  readonly trustProxy: TrustProxy;
  readonly shutdownGraceMs: number;
  readonly jwt: { readonly secret: string | undefined; readonly ttlMs: number };
  readonly adminEmails: readonly string[];
  /** How people sign in (ADR 0034): passwords (PASSWORD_LOGIN), an OpenID Connect provider (OIDC_*), or both. */
  readonly signIn: {
    readonly passwordLogin: boolean;
    readonly oidc: OidcSettings | undefined;
  };
  readonly bcryptCost: number;
  readonly links: {
    readonly anonTtlMs: number;
    readonly anonCodeLength: number;
    readonly codeLength: number;
    readonly maxUrlLength: number;
    readonly allowPrivateDestinations: boolean;
    readonly blocklistFile: string | undefined;
    /** The largest file `POST /api/v1/workspaces/{id}/imports` accepts (IMPORT_MAX_BYTES). */
    readonly importMaxBytes: number;
  };
  /** Bounds on one import, so that no file can exhaust memory, disk or the event loop (docs/adr/0019). */
  readonly imports: {
    readonly maxRows: number;
    readonly maxRowBytes: number;
    readonly maxFields: number;
    /** Imports a user may start per minute (RATE_LIMIT_IMPORT); `0` = off. */
    readonly perMinute: number;
    readonly maxRunningPerUser: number;
    readonly maxRunning: number;
    /** An upload that sends nothing for this long is answered 408 and its spool removed. */
    readonly uploadIdleTimeoutMs: number;
  };
  readonly redirect: {
    readonly maxAgeSeconds: number;
    readonly permanentStatus: 301 | 302 | 307 | 308;
    readonly temporaryStatus: 302 | 307;
    /** Where an unknown code sends a visitor (302) instead of the 404 page; unset: the page. */
    readonly notFoundRedirectUrl: string | undefined;
    /** Where an expired or deleted link sends a visitor (302) instead of the 410 page; unset: the page. */
    readonly expiredRedirectUrl: string | undefined;
  };
  readonly cache: {
    readonly maxEntries: number;
    /** What the cached links may hold of the heap (an estimate per entry: src/cache/cache-entry-bytes.ts). */
    readonly maxBytes: number;
    readonly linkTtlMs: number;
    readonly tombstoneTtlMs: number;
    readonly negativeTtlMs: number;
    /**
     * Scaled mode: how long an instance keeps a link in its own memory. Short, because another
     * instance's change reaches it only through Redis pub/sub, or not at all without Redis.
     */
    readonly localTtlMs: number;
  };
  readonly rateLimit: {
    readonly anonPerMinute: number;
    readonly authPerMinute: number;
    /** RATE_LIMIT_API: every other `/api/` route, per caller (key, token, session or address); 0 = off. */
    readonly apiPerMinute: number;
    /** Redirects one client (IP) may ask for per minute, counted by each instance in its memory; `0` = off. */
    readonly redirectsPerMinute: number;
  };
  /** What a public instance lets strangers do (DISALLOW_REGISTRATION, DISALLOW_ANONYMOUS_LINKS); the UI reads it from `GET /api/instance`. */
  readonly instance: { readonly registrationAllowed: boolean; readonly anonymousLinksAllowed: boolean };
  readonly cleanup: {
    readonly enabled: boolean;
    readonly intervalMs: number;
    readonly initialDelayMs: number;
    readonly lockAtMostMs: number;
    readonly lockAtLeastMs: number;
    readonly retentionMs: number;
    readonly bufferMs: number;
    readonly batchSize: number;
    readonly batchPauseMs: number;
    readonly maxDurationMs: number;
    readonly archive: boolean;
    /** Raw visit rows older than this are deleted by the reaper, with the visit facts no visit uses any more; counters stay. */
    readonly visitsRetentionMs: number;
    /** Hourly and daily roll-up rows older than this are deleted by the reaper (ADR 0021). */
    readonly rollupRetentionMs: number;
    /** Delivered and given-up webhook deliveries are deleted this long after their event. */
    readonly webhookDeliveryRetentionMs: number;
  };
  readonly analytics: {
    /** Off: redirects record nothing and no flusher runs (the bench compares both). */
    readonly enabled: boolean;
    readonly flushIntervalMs: number;
    readonly flushMaxEvents: number;
    /** Events held in memory at most, waiting or being written; beyond it a redirect's event is dropped and counted. */
    readonly bufferMax: number;
    /** strict: no visit gets a country (as for a request with `DNT: 1` or `Sec-GPC: 1` under standard). */
    readonly privacy: 'standard' | 'strict';
    /** A MaxMind-format database to look countries up in, instead of the bundled DB-IP Lite one. */
    readonly geoipDatabase: string | undefined;
  };
  readonly healthcheck: {
    readonly enabled: boolean;
    readonly intervalMs: number;
    /** Pause between two checks of one address, from the end of one to the start of the next. */
    readonly addressIntervalMs: number;
    /** Time a run spends checking one address before deferring its other links to the next run. */
    readonly addressBudgetMs: number;
    /** Checks a run makes of one workspace's links (anonymous links together) before deferring the rest. */
    readonly workspaceBudget: number;
  };
  /** Webhook delivery (ADR 0035). */
  readonly webhooks: {
    readonly enabled: boolean;
    /** How often an instance looks for due deliveries when the last look found none. */
    readonly pollIntervalMs: number;
    /** The waits after the 1st, 2nd, … failed attempt; the last one repeats. */
    readonly retryDelaysMs: readonly number[];
    /** A delivery failing this long after its event is given up; an endpoint failing this long is disabled. */
    readonly giveUpAfterMs: number;
    /** How long a claimed delivery is an instance's: past it (the instance died) another delivers it. */
    readonly claimTtlMs: number;
  };
  /** Variables that look like ours but are not, one line each, for start-up to log (config-lookalikes.ts). */
  readonly warnings: readonly string[];
  /** `GET /metrics` (ADR 0018): off answers 404 and counts nothing; a token makes it require `Authorization: Bearer`. */
  /** Custom domains (ADR 0036). */
  readonly domains: {
    /** The DNS servers verification asks (`address` or `address:port`); the system's when empty. */
    readonly dnsServers: readonly string[];
    /** The port the HTTP challenge is fetched on: 80 outside tests. */
    readonly challengeHttpPort: number;
    /** A Host no one registered gets 404 on short-code paths instead of the default domain's answers. */
    readonly strictHosts: boolean;
  };
  readonly metrics: { readonly enabled: boolean; readonly token: string | undefined };
}
