/** A tool definition as a tool server returns it (validated by the proxy before use). */
export interface RawToolDefinition {
  name: unknown;
  description?: unknown;
  parameters?: unknown;
  annotations?: unknown;
  /** optional contract flags (docs: tool-server contract): true marks a tool read-only / destructive */
  read_only?: unknown;
  destructive?: unknown;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  headers: Record<string, string>;
}

/** The transport to one tool server (plain HTTP contract or MCP). */
export interface ToolServerClient {
  listTools(opts: CallOptions): Promise<RawToolDefinition[]>;
  /** Returns the raw JSON answer and its size in bytes. */
  callTool(
    name: string,
    parameters: Record<string, unknown>,
    opts: CallOptions,
  ): Promise<{ output: unknown; bytes: number }>;
  health(opts: CallOptions): Promise<string>;
  close(): Promise<void>;
}

/**
 * Why a tool-server call failed. `rejected` means the server answered that this call was wrong
 * (4xx, MCP isError): the server itself is fine, so the breaker does not count it.
 */
export type ToolServerFailure =
  'unreachable' | 'timeout' | 'bad_answer' | 'server_error' | 'rejected' | 'too_large' | 'refused';

export class ToolServerError extends Error {
  readonly isToolServerError = true as const;
  constructor(
    readonly failure: ToolServerFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ToolServerError';
  }
}

export function isToolServerError(e: unknown): e is ToolServerError {
  return (
    typeof e === 'object' &&
    e !== null &&
    (e as { isToolServerError?: unknown }).isToolServerError === true
  );
}

export type ToolServerClientFactory = (entry: {
  name: string;
  url: string;
  transport: 'http' | 'mcp';
}) => ToolServerClient;
