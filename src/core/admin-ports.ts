import type { User } from './account-ports.js';
import type { Link } from './link.js';

/** Users newest first; `search` is a case-insensitive part of the email, `beforeId` the cursor. */
export interface UserSearch {
  readonly search?: string;
  readonly beforeId?: number;
  readonly limit: number;
}

/** A link as the service's operator looks it up: with who made it and where it lives. */
export interface LinkForOperator {
  readonly link: Link;
  readonly ownerEmail: string | null;
  readonly workspaceName: string | null;
}

/** What the operator disables a link with: the reason its 410 shows, when, and which operator (null: the command line). */
export interface LinkDisabling {
  readonly reason: string;
  readonly at: number;
  readonly by: number | null;
}

/** Counts of the whole instance; links by their status at `now` (a disabled link counts once, as disabled). */
export interface InstanceCounts {
  readonly users: number;
  readonly admins: number;
  readonly disabledUsers: number;
  readonly workspaces: number;
  readonly apiKeys: number;
  readonly links: {
    readonly active: number;
    readonly expired: number;
    readonly deleted: number;
    readonly disabled: number;
    readonly temporary: number;
    readonly permanent: number;
  };
}

/** What only the service's operator reads and changes, across every workspace. */
export interface OperatorStore {
  searchUsers(search: UserSearch): Promise<User[]>;
  /** `undefined` when no such user; `disabledAt` null enables. An already disabled user keeps the first time. */
  setUserDisabled(userId: number, disabledAt: number | null): Promise<User | undefined>;
  findLinkForOperator(domain: string, code: string): Promise<LinkForOperator | undefined>;
  /** `undefined` when no such link; `null` enables it again. */
  setLinkDisabled(domain: string, code: string, disabling: LinkDisabling | null): Promise<LinkForOperator | undefined>;
  countInstance(now: number): Promise<InstanceCounts>;
}
