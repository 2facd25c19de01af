import { isInquestError } from '@inquest/client';
import { CredentialsError } from './credentials';
import type { Style } from './style';

/** A CLI failure that carries its own exit code and has already been explained. */
export class CliExit extends Error {
  constructor(
    readonly exitCode: number,
    message = '',
  ) {
    super(message);
  }
}

/** One readable paragraph per failure, with the hint most likely to fix it. */
export function describeError(err: unknown, style: Style, url?: string): string {
  if (err instanceof CredentialsError) return `${style.red('error:')} ${err.message}`;
  if (!isInquestError(err)) {
    if (err instanceof Error && err.name === 'AbortError') return `${style.red('error:')} aborted`;
    return `${style.red('error:')} ${err instanceof Error ? err.message : String(err)}`;
  }
  const lines = [
    `${style.red('error:')} ${err.message} ${style.dim(`(${err.code}${err.status ? `, HTTP ${err.status}` : ''})`)}`,
  ];
  if (err.field) lines.push(`  field: ${err.field}`);
  const problems = err.errors?.length ? err.errors : err.details ? [err.details] : [];
  for (const p of problems) lines.push(`  - ${p.field}: ${p.error}`);
  switch (err.code) {
    case 'unauthorized':
      lines.push(
        '  hint: check INQUEST_TOKEN (or run `inquest login`); team tokens look like tok_….<secret>',
      );
      break;
    case 'forbidden':
      lines.push(
        /admin token/i.test(err.message)
          ? '  hint: pass the admin token (admin.…, printed by the first `npm start`) with --token, or set INQUEST_TOKEN to it'
          : '  hint: this needs a token with write permission (or an admin token for `inquest admin`)',
      );
      break;
    case 'network_error':
      lines.push(
        `  hint: is Inquest running${url ? ` at ${url}` : ''}? Set INQUEST_URL or pass --url`,
      );
      break;
    case 'rate_limited':
      if (err.retryAfter) lines.push(`  hint: retry in ${err.retryAfter} s`);
      break;
    case 'invalid_request':
      if (/X-Inquest-Team/i.test(err.message))
        lines.push('  hint: with an admin token, name the team with --team or INQUEST_TEAM');
      break;
  }
  if (err.requestId) lines.push(style.dim(`  request id: ${err.requestId}`));
  return lines.join('\n');
}
