/**
 * What an API key may do (ADR 0032). Each authenticated API route needs one scope; a key holds a
 * non-empty set of them. People signed in with a JWT or the session cookie are not limited by scopes.
 */
export const API_KEY_SCOPES = ['links:read', 'links:write', 'stats:read', 'workspace:admin'] as const;
export type ApiKeyScope = typeof API_KEY_SCOPES[number];

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

/** The scopes in their canonical order, each once: how they are stored and shown. */
export function canonicalScopes(scopes: Iterable<ApiKeyScope>): ApiKeyScope[] {
  const held = new Set(scopes);
  return API_KEY_SCOPES.filter((scope) => held.has(scope));
}

/** Stored as one space-separated string, the way OAuth spells a scope list (RFC 6749 §3.3). */
export function scopesToText(scopes: Iterable<ApiKeyScope>): string {
  return canonicalScopes(scopes).join(' ');
}

/** A stored list back; a word this version does not know is dropped, so it grants nothing. */
export function scopesFromText(text: string): ApiKeyScope[] {
  return canonicalScopes(text.split(' ').filter(isApiKeyScope));
}
