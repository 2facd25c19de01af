import { InquestClient } from '@inquest/client';
import { Command, CommanderError } from 'commander';
import { CliContext } from './cli-context';
import type { CliIo } from './cli-context';
import { registerAdminCommands } from './commands/admin';
import { registerConfigCommands } from './commands/config';
import { registerInvestigationCommands } from './commands/investigations';
import { registerKnowledgeCommands } from './commands/knowledge';
import { registerToolCommands } from './commands/tools';
import { registerWebhookCommands } from './commands/webhooks';
import { readCredentialsFile, writeCredentialsFile } from './credentials';
import { CliExit, describeError } from './errors-output';

export const VERSION = '0.1.0';

/** Builds the `inquest` program; `io` defaults to the process streams. */
export function buildProgram(io?: CliIo): { program: Command; ctx: CliContext } {
  const program = new Command('inquest');
  const ctx = io ? new CliContext(io, program) : CliContext.fromProcess(program);
  program
    .description(
      'Inquest from the command line: investigations, configuration, knowledge, administration',
    )
    .version(VERSION)
    .option('--url <url>', 'service address (env INQUEST_URL), e.g. http://localhost:8080')
    .option('--token <token>', 'API token (env INQUEST_TOKEN)')
    .option('--team <team>', 'team for team commands with an admin token (env INQUEST_TEAM)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.io.stdout.write(s),
      writeErr: (s) => ctx.io.stderr.write(s),
      outputError: (s, write) => write(ctx.err.red(s)),
    })
    .addHelpText(
      'after',
      `\nCredentials: --url/--token, else INQUEST_URL/INQUEST_TOKEN, else the file written by \`inquest login\`\n(${ctx.configPath}, mode 0600).`,
    )
    .exitOverride();

  program
    .command('login')
    .description('check and save --url and --token (and --team) in the config file, mode 0600')
    .action(async () => {
      const f = program.opts<{ url?: string; token?: string; team?: string }>();
      if (!f.url || !f.token)
        throw new CliExit(
          2,
          'error: usage: inquest login --url <url> --token <token> [--team <team>]',
        );
      const client = new InquestClient({ baseUrl: f.url, token: f.token, team: f.team });
      // A cheap authenticated read proves the pair works before it is saved.
      try {
        await client.config.effective();
      } catch (err) {
        // An admin token without a team answers invalid_request (no X-Inquest-Team): still a valid token.
        if ((err as { code?: string }).code !== 'invalid_request') throw err;
      }
      const existing = readCredentialsFile(ctx.configPath, (m) => ctx.warn(m));
      writeCredentialsFile(ctx.configPath, {
        ...existing,
        url: f.url,
        token: f.token,
        ...(f.team ? { team: f.team } : {}),
      });
      ctx.print(`Saved credentials for ${f.url} in ${ctx.configPath}`);
    });

  registerInvestigationCommands(program, ctx);
  registerConfigCommands(program, ctx);
  registerKnowledgeCommands(program, ctx);
  registerWebhookCommands(program, ctx);
  registerToolCommands(program, ctx);
  registerAdminCommands(program, ctx);
  for (const cmd of program.commands) propagateExitOverride(cmd);
  return { program, ctx };
}

function propagateExitOverride(cmd: Command): void {
  cmd.exitOverride();
  for (const c of cmd.commands) propagateExitOverride(c);
}

/** Runs the CLI and resolves to the process exit code (never calls process.exit itself). */
export async function runCli(argv: string[], io?: CliIo): Promise<number> {
  const { program, ctx } = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are "errors" to commander; usage problems were already printed.
      if (
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.code === 'commander.help'
      )
        return 0;
      if (err.code === 'commander.executeSubCommandAsync') return err.exitCode;
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof CliExit) {
      if (err.message) ctx.io.stderr.write(`${err.message}\n`);
      return err.exitCode;
    }
    let url: string | undefined;
    try {
      url = ctx.credentials().url;
    } catch {
      url = undefined;
    }
    ctx.io.stderr.write(`${describeError(err, ctx.err, url)}\n`);
    return 1;
  }
}
