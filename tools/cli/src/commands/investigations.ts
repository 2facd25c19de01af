import {
  AgentName as AgentNameSchema,
  InvestigationContext,
  InvestigationStatus,
} from '@inquest/api-contract';
import { Option } from 'commander';
import type { Command } from 'commander';
import type {
  AgentName,
  Investigation,
  InvestigationContext as Context,
  InvestigationStatusValue,
} from '@inquest/client';
import type { CliContext } from '../cli-context';
import { CliExit } from '../errors-output';
import { investigationReport, investigationsTable, json } from '../format';
import { ProgressLine } from '../progress-line';

// Choices come from the REST contract, so the CLI never drifts from what the API accepts.
const AGENTS: readonly AgentName[] = AgentNameSchema.options;
const STATUSES: readonly InvestigationStatusValue[] = InvestigationStatus.options;
const ENVIRONMENTS = InvestigationContext.shape.environment.unwrap().options;
const SEVERITIES = InvestigationContext.shape.severity.unwrap().options;

/** Exit codes of `investigate` and `status`, documented in the help text. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  cancelled: 3,
  stillRunning: 4,
  interrupted: 130,
} as const;

function exitFor(status: string): number {
  if (status === 'failed') return EXIT.failed;
  if (status === 'cancelled') return EXIT.cancelled;
  if (status === 'completed') return EXIT.ok;
  return EXIT.stillRunning;
}

interface InvestigateFlags {
  agent: AgentName;
  service?: string;
  namespace?: string;
  environment?: Context['environment'];
  severity?: Context['severity'];
  alert?: string;
  timeWindow?: string;
  hint?: string;
  json?: boolean;
  wait: boolean;
  timeout: string;
}

export function registerInvestigationCommands(program: Command, ctx: CliContext): void {
  program
    .command('investigate')
    .description('start an investigation and follow it to its report')
    .argument('<message>', 'what happened, e.g. "checkout returns 502 since 10:40"')
    .addOption(new Option('-a, --agent <name>', 'agent to run').choices(AGENTS).default('planner'))
    .option('-s, --service <service>', 'affected service')
    .option('-n, --namespace <namespace>', 'cluster namespace')
    .addOption(new Option('-e, --environment <env>', 'environment').choices(ENVIRONMENTS))
    .addOption(new Option('--severity <level>', 'severity').choices(SEVERITIES))
    .option('--alert <id>', 'related alert id')
    .option('--time-window <window>', 'time range to look at, e.g. 1h')
    .option('--hint <text>', 'a hint for the agent')
    .option('--no-wait', 'print the investigation id and return at once')
    .option('--timeout <seconds>', 'stop waiting after this many seconds', '300')
    .option('--json', 'print the final investigation as JSON (progress stays on stderr)')
    .addHelpText(
      'after',
      '\nExit codes: 0 completed, 1 failed or error, 2 usage, 3 cancelled, 4 still running at --timeout, 130 interrupted.',
    )
    .action(async (message: string, f: InvestigateFlags) => {
      const timeoutS = Number(f.timeout);
      if (!Number.isFinite(timeoutS) || timeoutS <= 0)
        throw new CliExit(EXIT.usage, 'error: --timeout must be a positive number of seconds');
      const context: Context = {
        service: f.service,
        namespace: f.namespace,
        environment: f.environment,
        severity: f.severity,
        related_alert: f.alert,
        time_window: f.timeWindow,
        hint: f.hint,
      };
      for (const k of Object.keys(context) as (keyof InvestigationContext)[])
        if (context[k] === undefined) delete context[k];
      const client = ctx.client();
      const started = await client.agents.run({
        agent_name: f.agent,
        message,
        ...(Object.keys(context).length ? { context } : {}),
        async: true,
      });
      const id = started.investigation_id;
      if (!f.wait) {
        ctx.print(f.json ? json(started) : id);
        return;
      }
      ctx.io.stderr.write(
        `${ctx.err.dim(`started ${id}; Ctrl-C stops waiting (the investigation keeps running)`)}\n`,
      );
      const final = await follow(ctx, id, timeoutS * 1000);
      ctx.print(f.json ? json(final) : investigationReport(final, ctx.out));
      ctx.exitCode = exitFor(final.status);
    });

  program
    .command('status')
    .description('show an investigation (its report once finished)')
    .argument('<investigation_id>')
    .option('-w, --wait', 'wait for it to finish, with a progress line')
    .option('--timeout <seconds>', 'with --wait: stop waiting after this many seconds', '300')
    .option('--json', 'print JSON')
    .action(async (id: string, f: { wait?: boolean; json?: boolean; timeout: string }) => {
      const inv = f.wait
        ? await follow(ctx, id, Number(f.timeout) * 1000)
        : await ctx.client().agents.status(id);
      ctx.print(f.json ? json(inv) : investigationReport(inv, ctx.out));
      if (inv.status === 'failed') ctx.exitCode = EXIT.failed;
    });

  program
    .command('list')
    .description("list the team's recent investigations, newest first")
    .option('-l, --limit <n>', 'how many (1..100)', '20')
    .option('--offset <n>', 'skip this many', '0')
    .addOption(new Option('--status <status>', 'only this status').choices(STATUSES))
    .addOption(new Option('-a, --agent <name>', 'only this agent').choices(AGENTS))
    .option('--all', 'every matching investigation (follows pagination)')
    .option('--json', 'print JSON')
    .action(
      async (f: {
        limit: string;
        offset: string;
        status?: InvestigationStatusValue;
        agent?: AgentName;
        all?: boolean;
        json?: boolean;
      }) => {
        const client = ctx.client();
        if (f.all) {
          const items = [];
          for await (const i of client.agents.listAll({ status: f.status, agent: f.agent }))
            items.push(i);
          ctx.print(
            f.json
              ? json(items)
              : items.length
                ? investigationsTable(items, ctx.out)
                : 'No investigations.',
          );
          return;
        }
        const page = await client.agents.list({
          limit: Number(f.limit),
          offset: Number(f.offset),
          status: f.status,
          agent: f.agent,
        });
        if (f.json) return ctx.print(json(page));
        if (!page.investigations.length) return ctx.print('No investigations.');
        ctx.print(investigationsTable(page.investigations, ctx.out));
        const { total, offset } = page.pagination;
        const shown = offset + page.investigations.length;
        if (shown < total)
          ctx.print(
            ctx.out.dim(`${offset + 1}-${shown} of ${total}; next page: --offset ${shown}`),
          );
      },
    );

  program
    .command('cancel')
    .description('cancel a pending or running investigation')
    .argument('<investigation_id>')
    .option('--json', 'print JSON')
    .action(async (id: string, f: { json?: boolean }) => {
      const res = await ctx.client().agents.cancel(id);
      ctx.print(f.json ? json(res) : `Cancelled ${res.investigation_id} at ${res.cancelled_at}`);
    });
}

/** Polls with a progress line until terminal; Ctrl-C stops waiting only. */
async function follow(ctx: CliContext, id: string, timeoutMs: number): Promise<Investigation> {
  const client = ctx.client();
  const progress = new ProgressLine(ctx.io.stderr, ctx.err, id);
  const ac = new AbortController();
  const onSigint = (): void => ac.abort();
  process.once('SIGINT', onSigint);
  try {
    return await client.waitForInvestigation(id, {
      timeoutMs,
      signal: ac.signal,
      onPoll: (inv) => progress.update(inv),
    });
  } catch (err) {
    progress.stop();
    if (ac.signal.aborted) {
      throw new CliExit(
        EXIT.interrupted,
        `stopped waiting; ${id} keeps running. Follow it: inquest status ${id} --wait; cancel it: inquest cancel ${id}`,
      );
    }
    if ((err as { code?: string }).code === 'wait_timeout') {
      throw new CliExit(
        EXIT.stillRunning,
        `${id} still running after ${Math.round(timeoutMs / 1000)} s. Follow it: inquest status ${id} --wait`,
      );
    }
    throw err;
  } finally {
    progress.stop();
    process.removeListener('SIGINT', onSigint);
  }
}
