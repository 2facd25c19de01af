import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isPendingApproval } from '@inquest/client';
import type { ConfigUpdateResponse, InquestClient } from '@inquest/client';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { diffPaths, getPath, patchFrom, setPath } from '../config-diff';
import type { PathChange } from '../config-diff';
import { CliExit } from '../errors-output';
import { auditTable, changeRequestsTable, json } from '../format';
import type { Style } from '../style';

/** `'#ops'` is not JSON but obviously meant as a string; anything that parses is taken as JSON. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeUpdate(res: ConfigUpdateResponse, style: Style): string {
  if (isPendingApproval(res)) {
    const who = res.approvers.length ? ` by ${res.approvers.join(', ')}` : '';
    return `${style.yellow('Pending approval')}${who}: change request ${res.change_request_id}`;
  }
  if (!res.changed_fields.length) return `No change (version ${res.version}).`;
  return `${style.green('Applied')} version ${res.version}: ${res.changed_fields.join(', ')}`;
}

function renderDiff(changes: PathChange[], style: Style): string {
  return changes
    .map((c) => {
      if (c.kind === 'added') return style.green(`+ ${c.path}: ${JSON.stringify(c.new)}`);
      if (c.kind === 'removed') return style.red(`- ${c.path}: ${JSON.stringify(c.old)}`);
      return `${style.red(`- ${c.path}: ${JSON.stringify(c.old)}`)}\n${style.green(`+ ${c.path}: ${JSON.stringify(c.new)}`)}`;
    })
    .join('\n');
}

async function teamOverrides(client: InquestClient): Promise<Record<string, unknown>> {
  const raw = await client.config.raw();
  const team = raw.lineage[raw.lineage.length - 1];
  return (team !== undefined ? raw.configs[team] : undefined) ?? {};
}

async function confirm(ctx: CliContext, question: string): Promise<boolean> {
  const rl = createInterface({ input: ctx.io.stdin, terminal: false });
  ctx.io.stderr.write(question);
  try {
    // A closed stdin (no terminal, nothing piped) counts as "no".
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export function registerConfigCommands(program: Command, ctx: CliContext): void {
  const config = program.command('config').description("the team's configuration");

  config
    .command('get')
    .description('print the effective (merged) configuration, or the per-level configs with --raw')
    .argument('[path]', 'only this dot path, e.g. agents.planner')
    .option('--effective', 'the merged configuration (default)')
    .option('--raw', 'lineage and each level’s own config')
    .action(async (path: string | undefined, f: { raw?: boolean; effective?: boolean }) => {
      if (f.raw && f.effective) throw new CliExit(2, 'error: choose one of --raw and --effective');
      const client = ctx.client();
      const doc: unknown = f.raw ? await client.config.raw() : await client.config.effective();
      if (path === undefined) return ctx.print(json(doc));
      const value = getPath(doc, path);
      if (value === undefined) throw new CliExit(1, `error: ${path} is not set`);
      ctx.print(json(value));
    });

  config
    .command('set')
    .description('set one value in the team overrides (deep-merged)')
    .argument('<path>', 'dot path, e.g. agents.planner.timeout')
    .argument(
      '<value>',
      'JSON value, e.g. 600, true, \'["a","b"]\' (a bare word is taken as a string)',
    )
    .option('--json', 'print the answer as JSON')
    .action(async (path: string, value: string, f: { json?: boolean }) => {
      let patch: Record<string, unknown>;
      try {
        patch = setPath({}, path, parseValue(value));
      } catch (err) {
        throw new CliExit(2, `error: ${(err as Error).message}`);
      }
      const res = await ctx.client().config.update(patch);
      ctx.print(f.json ? json(res) : describeUpdate(res, ctx.out));
    });

  config
    .command('edit')
    .description('edit the team overrides in $EDITOR, review the diff, confirm, apply')
    .option('-y, --yes', 'apply without asking')
    .action(async (f: { yes?: boolean }) => {
      const client = ctx.client();
      const before = await teamOverrides(client);
      const dir = mkdtempSync(join(tmpdir(), 'inquest-edit-'));
      const file = join(dir, 'team-config.json');
      try {
        writeFileSync(file, json(before) + '\n', { mode: 0o600 });
        const editor = ctx.io.env.VISUAL || ctx.io.env.EDITOR || 'vi';
        // Through the shell so EDITOR="code --wait" works as in git.
        const r = spawnSync(`${editor} "$INQUEST_EDIT_FILE"`, {
          shell: true,
          stdio: 'inherit',
          env: { ...ctx.io.env, INQUEST_EDIT_FILE: file },
        });
        if (r.status !== 0)
          throw new CliExit(
            1,
            `error: editor "${editor}" exited with ${r.status ?? r.signal}; nothing changed`,
          );
        let after: unknown;
        try {
          after = JSON.parse(readFileSync(file, 'utf8'));
        } catch (err) {
          throw new CliExit(
            1,
            `error: the edited file is not valid JSON (${(err as Error).message}); nothing changed`,
          );
        }
        if (typeof after !== 'object' || after === null || Array.isArray(after)) {
          throw new CliExit(1, 'error: the edited config must be a JSON object; nothing changed');
        }
        const changes = diffPaths(before, after);
        if (!changes.length) return ctx.print('No changes.');
        ctx.print(renderDiff(changes, ctx.out));
        const removed = changes.filter((c) => c.kind === 'removed');
        if (removed.length) {
          ctx.print(
            `removed keys fall back to the inherited value: ${removed.map((c) => c.path).join(', ')}`,
          );
        }
        const patch = patchFrom(changes);
        if (!f.yes && !(await confirm(ctx, 'Apply these changes? [y/N] '))) {
          ctx.print('Aborted; nothing changed.');
          return;
        }
        ctx.print(describeUpdate(await client.config.update(patch), ctx.out));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

  config
    .command('audit')
    .description('configuration change history, newest first')
    .option('-l, --limit <n>', 'entries (1..500)', '20')
    .option('--offset <n>', 'entries to skip', '0')
    .option('--diff', 'show each entry’s old/new values')
    .option('--json', 'print JSON (with full snapshots)')
    .action(async (f: { limit: string; offset: string; diff?: boolean; json?: boolean }) => {
      const res = await ctx.client().config.audit({
        limit: Number(f.limit),
        offset: Number(f.offset),
        include_full: Boolean(f.json),
      });
      if (f.json) return ctx.print(json(res));
      if (!res.history.length) return ctx.print('No changes recorded.');
      if (!f.diff) return ctx.print(auditTable(res.history, ctx.out));
      for (const e of res.history) {
        ctx.print(ctx.out.bold(`version ${e.version} · ${e.changed_at} · ${e.changed_by}`));
        for (const [path, d] of Object.entries(e.diff)) {
          ctx.print(`  ${path}: ${JSON.stringify(d.old)} -> ${JSON.stringify(d.new)}`);
        }
      }
    });

  config
    .command('pending')
    .description('change requests waiting for approval')
    .option('--json', 'print JSON')
    .action(async (f: { json?: boolean }) => {
      const res = await ctx.client().config.pending();
      if (f.json) return ctx.print(json(res));
      ctx.print(
        res.change_requests.length
          ? changeRequestsTable(res.change_requests, ctx.out)
          : 'No pending changes.',
      );
    });

  for (const verb of ['approve', 'reject'] as const) {
    config
      .command(verb)
      .description(`${verb} a pending change of the team (as one of its listed approvers)`)
      .argument('<change_request_id>')
      .option('--comment <text>')
      .action(async (id: string, f: { comment?: string }) => {
        const c = ctx.client().config;
        const body = f.comment ? { comment: f.comment } : {};
        const res = verb === 'approve' ? await c.approve(id, body) : await c.reject(id, body);
        ctx.print(
          `${res.change_request_id} ${res.status}${res.applied_version !== undefined ? ` (version ${res.applied_version})` : ''}`,
        );
      });
  }
}
