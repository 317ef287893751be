import type { FastifyInstance } from 'fastify';
import { addMember, createWorkspace } from './owned-links.js';
import { createApiKey, registerUser, type RegisteredUser } from './users.js';

/**
 * Every kind of caller of a link in a shared workspace (ADR 0007, "Who sees and changes what"): its owner, a plain
 * member, a stranger, an outsider who shares another workspace with the owner, the workspace's
 * API key and an API key of another of the owner's workspaces.
 */
export interface Callers {
  readonly owner: RegisteredUser;
  readonly member: RegisteredUser;
  readonly stranger: RegisteredUser;
  readonly outsider: RegisteredUser;
  readonly team: number;
  readonly teamKey: string;
  readonly foreignKey: string;
}

export async function createCallers(app: FastifyInstance): Promise<Callers> {
  const [owner, member, stranger, outsider] = await Promise.all([registerUser(app), registerUser(app), registerUser(app), registerUser(app)]);
  const team = await createWorkspace(app, owner.token, 'team');
  await addMember(app, owner.token, team, member.user.email, 'member');
  const otherTeam = await createWorkspace(app, owner.token, 'other team');
  await addMember(app, owner.token, otherTeam, outsider.user.email, 'admin');
  const teamKey = await createApiKey(app, owner.token, team);
  const foreignKey = await createApiKey(app, owner.token, owner.personalWorkspaceId);
  return { owner, member, stranger, outsider, team, teamKey, foreignKey };
}
