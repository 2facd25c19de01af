/** What the domain needs from its peers; gRPC adapters live in src/adapters. */

export interface ToolDescriptor {
  /** `<server>:<tool>` for tool-server tools, the bare name for built-ins */
  fullName: string;
  server: string;
  name: string;
  description: string;
  parameters: JsonSchemaObject;
  /** MCP annotations (readOnlyHint, destructiveHint, ...) as the tool server gave them */
  annotations?: Record<string, unknown>;
}

export interface JsonSchemaObject {
  type?: string;
  properties?: Record<
    string,
    { type?: string; description?: string; enum?: unknown[] } & Record<string, unknown>
  >;
  required?: string[];
}

export interface ToolServerStatus {
  name: string;
  enabled: boolean;
  healthy: boolean;
  breakerState: string;
}

export interface ToolListing {
  tools: ToolDescriptor[];
  servers: ToolServerStatus[];
}

export interface ToolCallResult {
  output: unknown;
  truncated: boolean;
}

/** The toolserver-proxy. Errors are DomainErrors (unavailable, timeout, invalid_request...). */
export interface ToolGateway {
  /** `requestId`: the caller's request id, forwarded on the call (`x-request-id`) */
  listTools(teamId: string, signal?: AbortSignal, requestId?: string): Promise<ToolListing>;
  callTool(
    teamId: string,
    investigationId: string,
    tool: string,
    parameters: Record<string, unknown>,
    signal?: AbortSignal,
    requestId?: string,
  ): Promise<ToolCallResult>;
}

export interface KnowledgeChunk {
  id: string;
  documentId: string;
  content: string;
  score: number;
  level: string;
  type: string;
  service?: string;
  title?: string;
}

export interface LearnedPatternView {
  patternId: string;
  symptoms: string[];
  rootCause: string;
  solution: string;
  confidence: number;
  occurrences: number;
}

/** The knowledge-raptor service. */
export interface KnowledgeSource {
  retrieve(
    teamId: string,
    query: string,
    options: { service?: string; topK?: number; levels?: string[] },
    signal?: AbortSignal,
    requestId?: string,
  ): Promise<KnowledgeChunk[]>;
  listPatterns(
    teamId: string,
    query: string,
    options: { service?: string; limit?: number },
    signal?: AbortSignal,
    requestId?: string,
  ): Promise<LearnedPatternView[]>;
}

/** The config-hierarchy service: the team's effective configuration document. */
export interface ConfigSource {
  getEffectiveConfig(
    teamId: string,
    signal?: AbortSignal,
    requestId?: string,
  ): Promise<Record<string, unknown>>;
}
