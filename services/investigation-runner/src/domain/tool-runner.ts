import { isDomainError } from '@inquest/errors';
import type { KnowledgeSource, ToolDescriptor, ToolGateway } from './ports';
import type { Params } from './param-filler';

/** The built-in tools every agent has by default; they read the knowledge base. */
export const BUILTIN_TOOLS: ToolDescriptor[] = [
  {
    fullName: 'knowledge_search',
    server: '',
    name: 'knowledge_search',
    description: 'Search the team knowledge base (runbooks, facts, policies) for the incident.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'what to search for' },
        service: { type: 'string', description: 'service name to favour' },
        top_k: { type: 'integer', description: 'number of results' },
      },
      required: ['query'],
    },
  },
  {
    fullName: 'similar_incidents',
    server: '',
    name: 'similar_incidents',
    description: 'Find past incidents and deployments similar to this one.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'symptoms' },
        service: { type: 'string', description: 'service' },
      },
      required: ['query'],
    },
  },
  {
    fullName: 'learned_patterns',
    server: '',
    name: 'learned_patterns',
    description: 'Patterns (symptoms, root cause, solution) learned from past investigations.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'symptoms' },
        service: { type: 'string', description: 'service' },
      },
      required: [],
    },
  },
];

const BUILTIN = new Set(BUILTIN_TOOLS.map((t) => t.fullName));
export const isBuiltin = (name: string) => BUILTIN.has(name);

export type CallOutcome =
  | { ok: true; output: unknown; truncated: boolean }
  | { ok: false; code: string; message: string; unreachable: boolean };

function aborted(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/**
 * Runs the tool calls of one investigation: every call carries the investigation's AbortSignal,
 * identical calls (same tool and parameters, from several sub-agents) run once, and every tool
 * actually called is recorded for tools_used.
 */
export class ToolRunner {
  readonly used: string[] = [];
  externalAttempts = 0;
  externalSuccesses = 0;
  externalUnreachable = 0;
  private readonly cache = new Map<string, Promise<CallOutcome>>();

  constructor(
    private readonly teamId: string,
    private readonly investigationId: string,
    private readonly tools: ToolGateway,
    private readonly knowledge: KnowledgeSource,
    private readonly signal: AbortSignal,
    private readonly onCalled: (tool: string) => void = () => undefined,
    /** the caller's request id, forwarded on every call */
    private readonly requestId?: string,
  ) {}

  call(tool: ToolDescriptor, params: Params): Promise<CallOutcome> {
    if (this.signal.aborted) return Promise.reject(aborted(this.signal));
    const key = `${tool.fullName}\u0000${stableJson(params)}`;
    let p = this.cache.get(key);
    if (!p) {
      p = this.run(tool, params);
      this.cache.set(key, p);
    }
    return p;
  }

  private async run(tool: ToolDescriptor, params: Params): Promise<CallOutcome> {
    if (!this.used.includes(tool.fullName)) this.used.push(tool.fullName);
    this.onCalled(tool.fullName);
    if (isBuiltin(tool.fullName))
      return { ok: true, output: await this.builtin(tool.fullName, params), truncated: false };
    this.externalAttempts++;
    try {
      const r = await this.tools.callTool(
        this.teamId,
        this.investigationId,
        tool.fullName,
        params,
        this.signal,
        this.requestId,
      );
      this.externalSuccesses++;
      return { ok: true, output: r.output, truncated: r.truncated };
    } catch (err) {
      if (this.signal.aborted) throw aborted(this.signal);
      const code = isDomainError(err) ? err.code : 'internal';
      const kind = isDomainError(err) ? err.kind : 'internal';
      const unreachable = kind === 'unavailable' || kind === 'timeout';
      if (unreachable) this.externalUnreachable++;
      return {
        ok: false,
        code,
        message: isDomainError(err) ? err.message : 'tool call failed',
        unreachable,
      };
    }
  }

  /** Built-ins answer empty results when the knowledge service answers nothing or is down. */
  private async builtin(name: string, params: Params): Promise<unknown> {
    const query = typeof params['query'] === 'string' ? params['query'] : '';
    const service = typeof params['service'] === 'string' ? params['service'] : undefined;
    try {
      if (name === 'learned_patterns') {
        const patterns = await this.knowledge.listPatterns(
          this.teamId,
          query,
          { service, limit: 5 },
          this.signal,
          this.requestId,
        );
        return { patterns };
      }
      const topK =
        typeof params['top_k'] === 'number' ? Math.min(20, Math.max(1, params['top_k'])) : 5;
      const levels = name === 'similar_incidents' ? ['L3'] : [];
      const results = await this.knowledge.retrieve(
        this.teamId,
        query,
        { service, topK, levels },
        this.signal,
        this.requestId,
      );
      return { results };
    } catch {
      // Knowledge is an aid, not a data source: an unreachable knowledge service yields an
      // empty answer (said in `note`) instead of failing the investigation.
      if (this.signal.aborted) throw aborted(this.signal);
      return name === 'learned_patterns'
        ? { patterns: [], note: 'knowledge service unavailable' }
        : { results: [], note: 'knowledge service unavailable' };
    }
  }
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
