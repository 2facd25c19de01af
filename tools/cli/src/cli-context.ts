import { homedir } from 'node:os';
import { InquestClient } from '@inquest/client';
import type { Command } from 'commander';
import { credentialsPath, readCredentialsFile, resolveCredentials } from './credentials';
import type { ResolvedCredentials } from './credentials';
import { colourEnabled, makeStyle } from './style';
import type { Style } from './style';

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
  home: string;
}

export interface GlobalFlags {
  url?: string;
  token?: string;
  team?: string;
}

/** What every command needs: output streams with their styles, and a client built from the credentials. */
export class CliContext {
  readonly out: Style;
  readonly err: Style;
  exitCode = 0;

  constructor(
    readonly io: CliIo,
    private readonly program: Command,
  ) {
    this.out = makeStyle(colourEnabled(io.stdout, io.env));
    this.err = makeStyle(colourEnabled(io.stderr, io.env));
  }

  static fromProcess(program: Command): CliContext {
    return new CliContext(
      {
        stdout: process.stdout,
        stderr: process.stderr,
        stdin: process.stdin,
        env: process.env,
        home: homedir(),
      },
      program,
    );
  }

  get configPath(): string {
    return credentialsPath(this.io.env, this.io.home);
  }

  credentials(): ResolvedCredentials {
    const flags = this.program.opts<GlobalFlags>();
    return resolveCredentials(
      flags,
      this.io.env,
      () => readCredentialsFile(this.configPath, (m) => this.warn(m)),
      this.configPath,
    );
  }

  client(): InquestClient {
    const c = this.credentials();
    return new InquestClient({
      baseUrl: c.url,
      token: c.token,
      team: c.team,
      headers: { 'user-agent': 'inquest-cli/0.1.0' },
    });
  }

  print(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  warn(text: string): void {
    this.io.stderr.write(`${this.err.yellow(text)}\n`);
  }

  /** Whole stdin as text (for `kb teach -`). */
  async readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of this.io.stdin)
      chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
}
