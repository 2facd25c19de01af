import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a scripted turn answers: a final text, tool calls, an HTTP error, or a hang. */
export type ScriptedTurn =
  | { content: string }
  | { toolCalls: { name: string; arguments: unknown }[] }
  | { status: number; error?: string }
  | { hang: true };

export interface ChatCompletionRequestSeen {
  model: string;
  messages: {
    role: string;
    content: string | null;
    tool_calls?: unknown[];
    tool_call_id?: string;
  }[];
  tools?: {
    type: string;
    function: { name: string; description?: string; parameters?: unknown };
  }[];
  response_format?: unknown;
  authorization?: string;
}

export interface ScriptedChatServer {
  /** base URL for the `openai` client, e.g. http://127.0.0.1:1234/v1 */
  baseUrl: string;
  requests: ChatCompletionRequestSeen[];
  /** requests the client gave up on before an answer (aborted, timed out) */
  abandoned: number;
  /** the next turns; when empty, `fallback` answers */
  script: ScriptedTurn[];
  fallback: (req: ChatCompletionRequestSeen) => ScriptedTurn;
  stop(): Promise<void>;
}

/**
 * A scripted OpenAI-compatible chat completions server on loopback (POST /v1/chat/completions),
 * the test double for any LLM: each request takes the next turn of the script.
 */
export async function startScriptedChatServer(
  script: ScriptedTurn[] = [],
): Promise<ScriptedChatServer> {
  let callNo = 0;
  const state: ScriptedChatServer = {
    baseUrl: '',
    requests: [],
    abandoned: 0,
    script,
    fallback: () => ({ status: 500, error: 'script exhausted' }),
    stop: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      let body: ChatCompletionRequestSeen;
      try {
        body = JSON.parse(raw) as ChatCompletionRequestSeen;
      } catch {
        res.writeHead(400).end();
        return;
      }
      body.authorization = req.headers.authorization;
      state.requests.push(body);
      const turn = state.script.shift() ?? state.fallback(body);
      if ('hang' in turn) {
        res.on('close', () => {
          if (!res.writableEnded) state.abandoned++;
        });
        return;
      }
      if ('status' in turn) {
        res.writeHead(turn.status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: turn.error ?? 'error', type: 'server_error' } }),
        );
        return;
      }
      callNo++;
      const message =
        'content' in turn
          ? { role: 'assistant', content: turn.content }
          : {
              role: 'assistant',
              content: null,
              tool_calls: turn.toolCalls.map((c, i) => ({
                id: `call_${callNo}_${i}`,
                type: 'function',
                function: {
                  name: c.name,
                  arguments:
                    typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
                },
              })),
            };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${callNo}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            { index: 0, message, finish_reason: 'content' in turn ? 'stop' : 'tool_calls' },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}
