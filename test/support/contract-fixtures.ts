import { DEFAULT_DOMAIN, type Link, type NewLink } from '../../src/core/link.js';
import type { LinkStore } from '../../src/core/ports.js';
import type { AccountStore } from '../../src/core/account-ports.js';

/** An epoch millisecond value above 2^32 (and 2^41) with a non-zero low part, to catch truncation. */
export const LATE_TIME = 2 ** 41 + 123_457;

let counter = 0;

/** A code, URL and e-mail address no other call in this process hands out. */
export function unique(label: string): string {
  counter += 1;
  return `${label}${process.pid}x${counter}`;
}

/** An anonymous, permanent link on the default domain unless `overrides` say otherwise. */
export function newLink(overrides: Partial<NewLink> = {}): NewLink {
  const url = overrides.originalUrl ?? `https://example.com/${unique('page')}`;
  return {
    domain: DEFAULT_DOMAIN,
    code: unique('c'),
    originalUrl: url,
    normalizedUrl: url,
    linkType: 'PERMANENT',
    workspaceId: null,
    ownerId: null,
    claimTokenHash: null,
    createdAt: LATE_TIME,
    expiresAt: null,
    ...overrides,
  };
}

export async function insertedLink(store: LinkStore, overrides: Partial<NewLink> = {}): Promise<Link> {
  const result = await store.insertLink(newLink(overrides));
  if (!result.ok) throw new Error(`test link not inserted: ${result.conflict}`);
  return result.link;
}

export interface TestOwner {
  readonly userId: number;
  readonly workspaceId: number;
  readonly email: string;
}

/** A user with their personal workspace, to own links and keys. */
export async function createOwner(accounts: AccountStore, createdAt = LATE_TIME): Promise<TestOwner> {
  const email = `${unique('user')}@example.test`;
  const result = await accounts.createUser({ email, passwordHash: 'not-a-hash', role: 'user', createdAt }, 'Personal');
  if (!result.ok) throw new Error(`test user not created: ${result.conflict}`);
  return { userId: result.user.id, workspaceId: result.personalWorkspaceId, email };
}
