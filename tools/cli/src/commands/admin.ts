import { ChangeRequestStatus, NodeKind as NodeKindSchema } from '@inquest/api-contract';
import { Option } from 'commander';
import type { NodeKind, Permission } from '@inquest/client';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { CliExit } from '../errors-output';
import { changeRequestsTable, json, table } from '../format';
import { parseValue } from './config';

export function registerAdminCommands(program: Command, ctx: CliContext): void {
  const admin = program.command('admin').description('organization administration (admin token)');

  const nodes = admin.command('nodes').description('the organization hierarchy');
  nodes
    .command('list')
    .option('--parent <node_id>', 'children of this node')
    .option('--json', 'print JSON')
    .action(async (f: { parent?: string; json?: boolean }) => {
      const res = await ctx.client().admin.listNodes(f.parent ? { parent_id: f.parent } : {});
      if (f.json) return ctx.print(json(res));
      ctx.print(
        table(
          ['NODE', 'KIND', 'PARENT', 'ORG', 'NAME'],
          res.nodes.map((n) => [n.node_id, n.kind, n.parent_id ?? '-', n.org_id, n.name]),
          ctx.out,
        ),
      );
    });
  nodes
    .command('get')
    .argument('<node_id>')
    .action(async (id: string) => ctx.print(json(await ctx.client().admin.getNode(id))));
  nodes
    .command('create')
    .argument('<node_id>', 'lowercase id, e.g. payments')
    .addOption(
      new Option('--kind <kind>', 'node kind')
        .choices(NodeKindSchema.options)
        .makeOptionMandatory(),
    )
    .requiredOption('--name <name>', 'display name')
    .option('--parent <node_id>', 'parent node (omit for an organization root)')
    .option('--json', 'print JSON')
    .action(
      async (id: string, f: { kind: NodeKind; name: string; parent?: string; json?: boolean }) => {
        const res = await ctx.client().admin.createNode({
          node_id: id,
          parent_id: f.parent ?? null,
          kind: f.kind,
          name: f.name,
        });
        ctx.print(f.json ? json(res) : `Created ${res.kind} ${res.node_id} (org ${res.org_id})`);
      },
    );
  nodes
    .command('set-config')
    .description("deep-merge a JSON object into a node's own config")
    .argument('<node_id>')
    .argument('<json>', 'partial config, e.g. \'{"chat_channel":"#ops"}\'')
    .action(async (id: string, text: string) => {
      const value = parseValue(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new CliExit(2, 'error: <json> must be a JSON object');
      }
      const res = await ctx.client().admin.updateNodeConfig(id, value as Record<string, unknown>);
      ctx.print(`Applied version ${res.version}: ${res.changed_fields.join(', ') || 'no change'}`);
    });

  const tokens = admin.command('tokens').description('team tokens');
  tokens
    .command('create')
    .argument('<team_node_id>')
    .requiredOption('--owner <email>', 'who the token is for (recorded in audit)')
    .option('--write', 'grant write permission (default read only)')
    .option('--label <label>', 'a label')
    .option('--expires-at <iso>', 'expiry, ISO 8601')
    .option('--json', 'print JSON')
    .action(
      async (
        team: string,
        f: { owner: string; write?: boolean; label?: string; expiresAt?: string; json?: boolean },
      ) => {
        const permissions: Permission[] = f.write ? ['read', 'write'] : ['read'];
        const res = await ctx.client().admin.createToken(team, {
          permissions,
          owner: f.owner,
          ...(f.label ? { label: f.label } : {}),
          ...(f.expiresAt ? { expires_at: f.expiresAt } : {}),
        });
        if (f.json) return ctx.print(json(res));
        ctx.print(res.token);
        ctx.io.stderr.write(
          ctx.err.dim(
            `${res.token_id} (${res.permissions.join(',')}) for ${res.owner}; shown only once\n`,
          ),
        );
      },
    );
  tokens
    .command('list')
    .argument('<team_node_id>')
    .option('--json', 'print JSON')
    .action(async (team: string, f: { json?: boolean }) => {
      const res = await ctx.client().admin.listTokens(team);
      if (f.json) return ctx.print(json(res));
      ctx.print(
        table(
          ['TOKEN', 'PERMISSIONS', 'OWNER', 'CREATED', 'EXPIRES', 'LABEL'],
          res.tokens.map((t) => [
            t.token_id,
            t.permissions.join(','),
            t.owner,
            t.created_at,
            t.expires_at ?? '-',
            t.label ?? '',
          ]),
          ctx.out,
        ),
      );
    });
  tokens
    .command('revoke')
    .argument('<token_id>')
    .action(async (id: string) => {
      await ctx.client().admin.revokeToken(id);
      ctx.print(`Revoked ${id}`);
    });

  const crs = admin
    .command('change-requests')
    .description('configuration changes waiting for approval');
  crs
    .command('list')
    .addOption(
      new Option('--status <status>', 'only this status').choices(ChangeRequestStatus.options),
    )
    .option('--team-id <team>', 'only this team')
    .option('--json', 'print JSON')
    .action(
      async (f: {
        status?: 'pending_approval' | 'approved' | 'rejected';
        teamId?: string;
        json?: boolean;
      }) => {
        const res = await ctx
          .client()
          .admin.listChangeRequests({ status: f.status, team: f.teamId });
        if (f.json) return ctx.print(json(res));
        ctx.print(
          res.change_requests.length
            ? changeRequestsTable(res.change_requests, ctx.out)
            : 'No change requests.',
        );
      },
    );
  for (const verb of ['approve', 'reject'] as const) {
    crs
      .command(verb)
      .argument('<change_request_id>')
      .option('--comment <text>')
      .action(async (id: string, f: { comment?: string }) => {
        const c = ctx.client().admin;
        const body = f.comment ? { comment: f.comment } : {};
        const res =
          verb === 'approve'
            ? await c.approveChangeRequest(id, body)
            : await c.rejectChangeRequest(id, body);
        ctx.print(`${res.change_request_id} ${res.status}`);
      });
  }
}
