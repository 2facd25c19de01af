import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { DomainError, timeoutError } from '@inquest/errors';
import { createCircuitBreaker, type CircuitBreaker } from '@inquest/runtime';
import type {
  ChatCallOptions,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
} from './chat-model';

export interface OpenAiChatModelOptions {
  /** e.g. https://api.openai.com/v1 or any OpenAI-compatible server */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** per request, ms (default 60 s) */
  timeoutMs?: number;
  /** retries of connection errors, 429 and 5xx (default 1) */
  maxRetries?: number;
  /** opens after repeated failures (default: one per model, opening at 50% of 5 or more calls) */
  breaker?: CircuitBreaker;
}

const llmUnavailable = (message: string, cause?: unknown) =>
  new DomainError('unavailable', 'llm_unavailable', message, { cause });

/** ChatModel over any OpenAI-compatible chat completions API (the `openai` package). */
export class OpenAiChatModel implements ChatModel {
  readonly id: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly breaker: CircuitBreaker;

  constructor(private readonly options: OpenAiChatModelOptions) {
    this.id = options.model;
    this.breaker =
      options.breaker ??
      createCircuitBreaker({ name: 'the language model', openCode: 'llm_unavailable' });
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey || 'none',
      timeout: this.timeoutMs,
      maxRetries: options.maxRetries ?? 1,
    });
  }

  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: this.options.model,
      messages: request.messages.map(toOpenAi),
    };
    if (request.tools?.length) {
      params.tools = request.tools.map((t): ChatCompletionTool => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    if (request.json) params.response_format = { type: 'json_object' };
    if (request.temperature !== undefined) params.temperature = request.temperature;
    if (request.maxTokens !== undefined) params.max_tokens = request.maxTokens;
    // our own deadline, so that a timeout is told apart from a refused connection reliably
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort(new Error('timeout'));
    }, timeoutMs);
    const signal = options.signal
      ? AbortSignal.any([options.signal, deadline.signal])
      : deadline.signal;
    let completion;
    try {
      completion = await this.breaker.fire(async () => {
        try {
          return await this.client.chat.completions.create(params, {
            signal,
            timeout: timeoutMs + 1000,
          });
        } catch (err) {
          if (timedOut && !options.signal?.aborted)
            throw timeoutError('the language model did not answer in time');
          throw this.mapError(err, options.signal);
        }
      }, options.signal);
    } finally {
      clearTimeout(timer);
    }
    const choice = completion.choices?.[0];
    if (!choice) throw llmUnavailable('the language model returned no choice');
    const msg = choice.message;
    const toolCalls = (msg.tool_calls ?? []).flatMap((c) =>
      c.type === 'function'
        ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments ?? '' }]
        : [],
    );
    return {
      content: msg.content ?? null,
      toolCalls,
      finishReason: choice.finish_reason ?? 'stop',
      usage: completion.usage
        ? {
            promptTokens: completion.usage.prompt_tokens,
            completionTokens: completion.usage.completion_tokens,
          }
        : undefined,
    };
  }

  private mapError(err: unknown, signal?: AbortSignal): unknown {
    if (signal?.aborted) return signal.reason ?? err;
    // by class name, not instanceof: the SDK may be loaded twice (ESM and CommonJS)
    const name = err instanceof Error ? err.constructor.name : '';
    const status = (err as { status?: unknown }).status;
    if (
      name === 'APIConnectionTimeoutError' ||
      /timed? ?out/i.test(err instanceof Error ? err.message : '')
    ) {
      return timeoutError('the language model did not answer in time');
    }
    if (name === 'APIUserAbortError') return err;
    if (name === 'APIConnectionError')
      return llmUnavailable('the language model cannot be reached', err);
    if (typeof status === 'number')
      return llmUnavailable(`the language model answered ${status}`, err);
    return llmUnavailable('the language model call failed', err);
  }
}

function toOpenAi(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.tool_calls?.length
          ? {
              tool_calls: m.tool_calls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    default:
      return { role: m.role, content: m.content };
  }
}
