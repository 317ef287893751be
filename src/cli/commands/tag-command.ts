import type { Command } from 'commander';
import type { AccountServices } from '../../accounts/account-services.js';
import { workspaceOperator } from '../../accounts/workspace-operator.js';
import { LinkforgeError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { tagNameKey } from '../../core/tag-rules.js';
import type { LinkServices } from '../../links/link-services.js';
import { deleteTag } from '../../links/tags/delete-tag.js';
import { listTags } from '../../links/tags/list-tags.js';
import { updateTag, type TagUpdate } from '../../links/tags/update-tag.js';
import { withDeps } from '../cli-context.js';
import { parseId, targetWorkspace } from '../cli-options.js';
import { printListing } from '../print-listing.js';

interface WorkspaceOption { workspace?: number }

/** The workspace the command acts in, and the operator's principal there (accounts/workspace-operator.ts). */
async function actingIn(links: LinkServices, accounts: AccountServices, options: WorkspaceOption): Promise<{ workspaceId: number; principal: Principal }> {
  const workspaceId = await targetWorkspace(links.transfer, options.workspace);
  return { workspaceId, principal: await workspaceOperator(accounts, workspaceId) };
}

/** The tag of this name (whatever its case), or `tag_not_found`. */
async function tagIdNamed(links: LinkServices, principal: Principal, workspaceId: number, name: string): Promise<number> {
  const tag = (await listTags(links.owned, principal, workspaceId)).find((candidate) => tagNameKey(candidate.name) === tagNameKey(name.trim()));
  if (tag === undefined) throw new LinkforgeError('tag_not_found', `The workspace has no tag named "${name}".`);
  return tag.id;
}

function changeTag(name: string, update: TagUpdate, options: WorkspaceOption): Promise<void> {
  return withDeps(async ({ links, accounts }) => {
    const { workspaceId, principal } = await actingIn(links, accounts, options);
    const tag = await updateTag(links.owned, principal, workspaceId, await tagIdNamed(links, principal, workspaceId, name), update);
    console.log(`${tag.name}\t${tag.colour}`);
  });
}

export function registerTagCommand(program: Command): void {
  const tag = program.command('tag').description('see and manage a workspace\'s tags (link create --tag makes them)');
  const workspaceFlag = ['--workspace <id>', 'the workspace (default: the only one, when there is exactly one)'] as const;
  tag.command('list')
    .description('list the tags: name, colour, how many links carry it')
    .option(...workspaceFlag, parseId)
    .option('--json', 'print JSON instead of text')
    .action(async (options: WorkspaceOption & { json?: boolean }) => {
      await withDeps(async ({ links, accounts }) => {
        const { workspaceId, principal } = await actingIn(links, accounts, options);
        const tags = await listTags(links.owned, principal, workspaceId);
        if (tags.length === 0 && !options.json) console.log('The workspace has no tags yet: `linkforge link create URL --tag NAME` makes one.');
        else printListing(tags, options.json, (t) => `${t.name}\t${t.colour}\t${t.linkCount} link${t.linkCount === 1 ? '' : 's'}`);
      });
    });
  tag.command('rename').description('rename a tag on every link carrying it').argument('<name>').argument('<new-name>')
    .option(...workspaceFlag, parseId)
    .action((name: string, newName: string, options: WorkspaceOption) => changeTag(name, { name: newName }, options));
  tag.command('colour').description('recolour a tag: a palette name (gray, red, orange, amber, green, teal, blue, indigo, purple, pink) or #rrggbb')
    .argument('<name>').argument('<colour>')
    .option(...workspaceFlag, parseId)
    .action((name: string, colour: string, options: WorkspaceOption) => changeTag(name, { colour }, options));
  tag.command('delete').description('delete a tag and take it off every link (the links stay)').argument('<name>')
    .option(...workspaceFlag, parseId)
    .action(async (name: string, options: WorkspaceOption) => {
      await withDeps(async ({ links, accounts }) => {
        const { workspaceId, principal } = await actingIn(links, accounts, options);
        await deleteTag(links.owned, principal, workspaceId, await tagIdNamed(links, principal, workspaceId, name));
        console.log(`Deleted the tag ${name}`);
      });
    });
}
