import assert from 'node:assert/strict';
import { createLink } from './owned-links.js';
import type { TestApp } from './test-app.js';
import { registerUser } from './users.js';

export const HUMAN_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** A visit through a proxy: the client address it names in X-Forwarded-For (the test app trusts loopback), its User-Agent and other headers. */
export interface ProxiedVisit {
  readonly forwardedFor: string;
  readonly userAgent?: string;
  readonly headers?: Record<string, string>;
}

/** A new user's new link, visited once per entry from 127.0.0.1, every visit flushed to the database. */
export async function visitNewLink(t: TestApp, visits: readonly ProxiedVisit[]) {
  const owner = await registerUser(t.app);
  const link = await createLink(t.app, owner.token, { url: 'https://example.com/places' });
  for (const visit of visits) {
    const response = await t.app.inject({
      url: `/${link.shortCode}`, headers: { 'user-agent': visit.userAgent ?? HUMAN_UA, 'x-forwarded-for': visit.forwardedFor, ...visit.headers },
    });
    assert.equal(response.statusCode, 301);
  }
  await (t.deps.analytics ?? assert.fail('analytics are on by default')).flusher.flushNow();
  return { owner, link };
}
