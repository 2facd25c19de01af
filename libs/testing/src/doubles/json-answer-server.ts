import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonAnswerServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** requests received (any path) */
  hits: number;
  /** what every request is answered with; change it between calls */
  answer: { status: number; body: unknown };
  stop(): Promise<void>;
}

/**
 * An HTTP server on loopback that answers every request with `answer` (JSON) and counts them:
 * the third-party API (Slack, a reranker) behind a client under test, e.g. to show a circuit
 * breaker stops calling it.
 */
export async function startJsonAnswerServer(
  answer: JsonAnswerServer['answer'] = { status: 200, body: {} },
): Promise<JsonAnswerServer> {
  const server = createServer((req, res) => {
    double.hits++;
    req.resume();
    req.on('end', () => {
      res.writeHead(double.answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(double.answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const double: JsonAnswerServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: 0,
    answer,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
  return double;
}
