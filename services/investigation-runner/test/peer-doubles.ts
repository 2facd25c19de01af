/**
 * Small real gRPC test doubles of the runner's peers (config-hierarchy, toolserver-proxy,
 * knowledge-raptor) on loopback, serving scripted answers.
 */
import { unavailable, type DomainError } from '@inquest/errors';
import { implement, startGrpcServer, type HandlerContext, type RunningGrpcServer } from '@inquest/grpc-kit';
import { configV1, knowledgeV1, toolsV1 } from '@inquest/proto';

export interface ScriptedTool {
  server: string;
  name: string;
  description?: string;
  parameters: { type: 'object'; properties: Record<string, { type: string; description?: string; enum?: string[] }>; required?: string[] };
  /** answer (or throw a DomainError); `ctx.signal` aborts when the runner cancels the call */
  handler(params: Record<string, unknown>, ctx: HandlerContext): Promise<Record<string, unknown>>;
}

export interface PeerDoubles {
  configAddr: string;
  toolsAddr: string;
  knowledgeAddr: string;
  /** effective config per team */
  configs: Map<string, Record<string, unknown>>;
  tools: ScriptedTool[];
  servers: toolsV1.ServerStatus[];
  calls: { tool: string; params: Record<string, unknown>; investigationId?: string; aborted: boolean }[];
  knowledge: { chunks: knowledgeV1.RetrievedChunk[]; patterns: knowledgeV1.LearnedPattern[]; down: boolean };
  listToolsError?: DomainError;
  stop(): Promise<void>;
}

export async function startPeerDoubles(): Promise<PeerDoubles> {
  const peers = {
    configs: new Map<string, Record<string, unknown>>(),
    tools: [] as ScriptedTool[],
    servers: [] as toolsV1.ServerStatus[],
    calls: [] as PeerDoubles['calls'],
    knowledge: { chunks: [], patterns: [], down: false } as PeerDoubles['knowledge'],
  } as PeerDoubles;

  const config = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: configV1.ConfigServiceService,
        name: 'inquest.config.v1.ConfigService',
        implementation: implement(configV1.ConfigServiceService, {
          getEffectiveConfig: async (req: configV1.GetEffectiveConfigRequest) => ({ config: peers.configs.get(req.team_id) ?? {}, version: 1 }),
        } as never),
      },
    ],
  });
  const tools = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: toolsV1.ToolServiceService,
        name: 'inquest.tools.v1.ToolService',
        implementation: implement(toolsV1.ToolServiceService, {
          listTools: async () => {
            if (peers.listToolsError) throw peers.listToolsError;
            return {
              tools: peers.tools.map((t) => ({
                full_name: `${t.server}:${t.name}`,
                server: t.server,
                name: t.name,
                description: t.description ?? t.name,
                parameters: t.parameters,
              })),
              servers: peers.servers,
            };
          },
          callTool: async (req, ctx) => {
            const tool = peers.tools.find((t) => `${t.server}:${t.name}` === req.tool);
            const entry = { tool: req.tool, params: req.parameters ?? {}, investigationId: req.investigation_id, aborted: false };
            peers.calls.push(entry);
            ctx.signal.addEventListener('abort', () => {
              entry.aborted = true;
            });
            if (!tool) throw unavailable(`unknown tool ${req.tool}`);
            const output = await tool.handler(req.parameters ?? {}, ctx);
            return { output, truncated: false, duration_ms: 1, output_bytes: 1 };
          },
          getServerHealth: async () => ({ servers: peers.servers }),
        }),
      },
    ],
  });
  const knowledge = await startGrpcServer({
    port: 0,
    services: [
      {
        definition: knowledgeV1.KnowledgeServiceService,
        name: 'inquest.knowledge.v1.KnowledgeService',
        implementation: implement(knowledgeV1.KnowledgeServiceService, {
          retrieve: async (req: knowledgeV1.RetrieveRequest) => {
            if (peers.knowledge.down) throw unavailable('down');
            const levels = req.levels ?? [];
            const results = peers.knowledge.chunks.filter((c) => levels.length === 0 || levels.includes(c.level));
            return { query_id: 'q1', strategy: 'hybrid', results, took_ms: 1 };
          },
          listPatterns: async () => {
            if (peers.knowledge.down) throw unavailable('down');
            return { patterns: peers.knowledge.patterns };
          },
        } as never),
      },
    ],
  });
  const servers: RunningGrpcServer[] = [config, tools, knowledge];
  peers.configAddr = config.address;
  peers.toolsAddr = tools.address;
  peers.knowledgeAddr = knowledge.address;
  peers.stop = async () => {
    await Promise.all(servers.map((s) => s.shutdown(200)));
  };
  return peers;
}

/** Resolves when the signal aborts (a tool that hangs until the caller cancels). */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error('aborted'));
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
export const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** A small Kubernetes tool server: list pods -> describe pod X -> logs of X. */
export function k8sTools(): ScriptedTool[] {
  return [
    {
      server: 'k8s',
      name: 'list_pods',
      description: 'List pods in a Kubernetes namespace',
      parameters: { type: 'object', properties: { namespace: { type: 'string' } }, required: ['namespace'] },
      handler: async (p) => ({
        pods: [
          { name: 'checkout-7d9f8b6c5-x2x4z', namespace: p['namespace'], status: 'CrashLoopBackOff', restarts: 7, lastState: { reason: 'OOMKilled', exitCode: 137, finishedAt: at(12) } },
          { name: 'cart-5c8d7b9f4-abcde', namespace: p['namespace'], status: 'Running', restarts: 0 },
        ],
      }),
    },
    {
      server: 'k8s',
      name: 'describe_pod',
      description: 'Describe a pod',
      parameters: { type: 'object', properties: { name: { type: 'string' }, namespace: { type: 'string' } }, required: ['name', 'namespace'] },
      handler: async (p) => ({
        name: p['name'],
        events: [
          { timestamp: at(0), reason: 'ScalingReplicaSet', message: 'deployment checkout rolled out image checkout:2.4.0' },
          { timestamp: at(10), reason: 'Killing', message: 'Container checkout exceeded memory limit: OOMKilled' },
          { timestamp: at(12), reason: 'BackOff', message: 'Back-off restarting failed container checkout' },
        ],
      }),
    },
    {
      server: 'k8s',
      name: 'get_pod_logs',
      description: 'Logs of a pod',
      parameters: { type: 'object', properties: { pod: { type: 'string' }, namespace: { type: 'string' } }, required: ['pod'] },
      handler: async (p) => ({
        value: `${at(9)} INFO cache warmed for ${String(p['pod'])}\n${at(10)} ERROR java.lang.OutOfMemoryError: Java heap space\n${at(10)} FATAL Out of memory: Killed process 1 (java)`,
      }),
    },
  ];
}
