import { notFound, type DomainError } from '@inquest/errors';
import type { HandlerContext } from '@inquest/grpc-kit';
import { toolsV1 } from '@inquest/proto';
import { serveDouble, type DoubleSwitches } from './serve-double';

type Obj = Record<string, unknown>;

/** A tool the double lists and answers, as the toolserver-proxy would for one tool server. */
export interface ScriptedTool {
  server: string;
  name: string;
  description?: string;
  parameters: {
    type: 'object';
    properties: Record<string, { type: string; description?: string; enum?: string[] }>;
    required?: string[];
  };
  annotations?: Obj;
  /** the tool's output (or a thrown DomainError); `ctx.signal` aborts when the caller cancels */
  handler(params: Obj, ctx: HandlerContext): Promise<Obj>;
}

/** One CallTool the double received. */
export interface ToolCall {
  tool: string;
  params: Obj;
  teamId: string;
  investigationId?: string;
  /** the caller cancelled the call (or its deadline passed) */
  aborted: boolean;
}

export interface ToolServiceDouble extends DoubleSwitches {
  address: string;
  /** what ListTools lists and CallTool calls (the same for every team) */
  tools: ScriptedTool[];
  /** the server statuses ListTools and GetServerHealth report */
  servers: toolsV1.ServerStatus[];
  /** every CallTool in order */
  calls: ToolCall[];
  /** when set, ListTools fails with it (the proxy cannot list the tools) */
  listError?: DomainError;
  stop(): Promise<void>;
}

/**
 * A real gRPC ToolService (toolserver-proxy's contract) on loopback serving scripted tools: tools
 * are named `<server>:<name>`, CallTool runs the tool's handler and records the call. A call to a
 * tool that is not listed answers NOT_FOUND, as the proxy does.
 */
export async function startToolServiceDouble(
  options: { tools?: ScriptedTool[]; servers?: toolsV1.ServerStatus[] } = {},
): Promise<ToolServiceDouble> {
  const double: ToolServiceDouble = {
    address: '',
    down: false,
    delayMs: 0,
    tools: options.tools ?? [],
    servers: options.servers ?? [],
    calls: [],
    stop: async () => undefined,
  };
  const server = await serveDouble({
    definition: toolsV1.ToolServiceService,
    name: 'inquest.tools.v1.ToolService',
    switches: double,
    scripted: {
      listTools: async () => {
        if (double.listError) throw double.listError;
        return {
          tools: double.tools.map((t) => ({
            full_name: `${t.server}:${t.name}`,
            server: t.server,
            name: t.name,
            description: t.description ?? t.name,
            parameters: t.parameters,
            ...(t.annotations ? { annotations: t.annotations } : {}),
          })),
          servers: double.servers,
        };
      },
      callTool: async (req, ctx) => {
        const params = req.parameters ?? {};
        const call: ToolCall = {
          tool: req.tool,
          params,
          teamId: req.team_id,
          ...(req.investigation_id === undefined ? {} : { investigationId: req.investigation_id }),
          aborted: false,
        };
        double.calls.push(call);
        ctx.signal.addEventListener('abort', () => {
          call.aborted = true;
        });
        const tool = double.tools.find((t) => `${t.server}:${t.name}` === req.tool);
        if (!tool) throw notFound(`unknown tool ${req.tool}`);
        const started = Date.now();
        const output = await tool.handler(params, ctx);
        return {
          output,
          truncated: false,
          duration_ms: Date.now() - started,
          output_bytes: Buffer.byteLength(JSON.stringify(output)),
        };
      },
      getServerHealth: async () => ({ servers: double.servers }),
    },
  });
  double.address = server.address;
  double.stop = () => server.shutdown(200);
  return double;
}
