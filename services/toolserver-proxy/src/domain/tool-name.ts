import { invalidRequest } from '@inquest/errors';

// No `/`, spaces, `..` or control characters: names become URL path segments.
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** Why a server or tool name is unusable, or null when it is fine. */
export function nameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'name must be a non-empty string';
  if (!NAME.test(name) || name.includes('..')) {
    return `name ${JSON.stringify(name.slice(0, 80))} may only hold letters, digits, "_", "-" and "." (no "/", "..", spaces)`;
  }
  return null;
}

/** Splits `<server>:<tool>`; throws invalid_request for anything else. */
export function parseToolName(full: string): { server: string; tool: string } {
  const idx = full.indexOf(':');
  if (idx <= 0 || idx === full.length - 1) {
    throw invalidRequest(
      `tool must be named <server>:<tool>, got ${JSON.stringify(full.slice(0, 120))}`,
    );
  }
  const server = full.slice(0, idx);
  const tool = full.slice(idx + 1);
  const problem = nameProblem(server) ?? nameProblem(tool);
  if (problem)
    throw invalidRequest(`invalid tool ${JSON.stringify(full.slice(0, 120))}: ${problem}`);
  return { server, tool };
}
