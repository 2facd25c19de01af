import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { json, table } from '../format';

export function registerToolCommands(program: Command, ctx: CliContext): void {
  program
    .command('tools')
    .description(
      "the team's tool servers and tools: <server>:<tool> names for enable_extra_tools and disable_default_tools",
    )
    .option('--refresh', 'list the servers again instead of the cached lists')
    .option('--json', 'print JSON (with parameter schemas)')
    .action(async (f: { refresh?: boolean; json?: boolean }) => {
      const res = await ctx.client().tools.list(f.refresh ? { refresh: true } : {});
      if (f.json) return ctx.print(json(res));
      if (!res.servers.length) ctx.print('No tool servers.');
      for (const s of res.servers) {
        const health = s.healthy
          ? 'healthy'
          : `unhealthy${s.last_error ? `: ${s.last_error}` : ''}`;
        ctx.print(ctx.out.bold(`${s.name} · ${s.url} · ${health} · breaker ${s.breaker_state}`));
        if (!s.tools.length) continue;
        ctx.print(
          table(
            ['TOOL', 'ACCESS', 'AGENTS', 'DESCRIPTION'],
            s.tools.map((t) => [
              t.name,
              t.read_only ? 'read-only' : t.destructive ? 'destructive' : 'writes',
              t.agents.join(', ') || '-',
              t.description.split('\n')[0] ?? '',
            ]),
            ctx.out,
          ),
        );
      }
      ctx.print(
        `built-in: ${res.builtin_tools.map((t) => `${t.name} (${t.agents.join(', ') || '-'})`).join('; ')}`,
      );
    });
}
