/** A tool the model may call; `parameters` is a JSON schema object. */
export interface ChatToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ChatToolCall {
  id: string;
  name: string;
  /** raw JSON text of the arguments as the model produced them */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ChatToolSpec[];
  /** ask for a JSON object answer (response_format json_object) */
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
}

export interface ChatResponse {
  content: string | null;
  toolCalls: ChatToolCall[];
  finishReason: string;
  usage?: { promptTokens: number; completionTokens: number };
}

export interface ChatCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * An OpenAI-compatible chat model with tool calling. Failures are DomainErrors: code
 * `llm_unavailable` (kind unavailable) when the API cannot be reached or refuses, `timeout` when
 * the call outlives its deadline. An aborted call rejects with the signal's reason.
 */
export interface ChatModel {
  /** model name, for logs */
  readonly id: string;
  chat(request: ChatRequest, options?: ChatCallOptions): Promise<ChatResponse>;
}
