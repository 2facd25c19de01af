/**
 * REST conformance of issue 18 point 11: an unsupported reranker is refused when saved, and a
 * hosted reranker (the common `/rerank` request of Cohere, Jina and Hugging Face TEI) is called
 * with its model and an API key resolved from a vault reference. The real gateway,
 * config-hierarchy and knowledge-raptor on one in-process event bus; a loopback `/rerank` server.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { silentLogger } from '@inquest/observability';
import { tempDir, gatewayRequest } from '@inquest/testing';
import { start as startConfigService } from '@inquest/config-hierarchy-service';
import { start as startKnowledge } from '@inquest/knowledge-raptor-service';
import { hierarchyAdmin, startTestGateway, type RunningGateway } from './support/hierarchy';

interface RerankCall {
  authorization?: string;
  body: { model?: string; query: string; documents: string[]; top_n: number };
}

const adminToken = `admin.${randomBytes(24).toString('base64url')}`;
const dir = tempDir();
const bus = new InProcessEventBus();
const calls: RerankCall[] = [];
let rerankServer: Server;
let rerankUrl: string;
let gw: RunningGateway;
const stops: (() => Promise<unknown>)[] = [];
let token: string;

const call = (t: string, method: string, path: string, body?: unknown) =>
  gatewayRequest(gw.url, method, `/api/v1${path}`, {
    token: t,
    ...(body === undefined ? {} : { body }),
  });

beforeAll(async () => {
  // Scores the documents that mention "rollback" highest, as a hosted reranker would.
  rerankServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as RerankCall['body'];
      calls.push({ authorization: req.headers.authorization, body });
      const results = body.documents.map((d, index) => ({
        index,
        relevance_score: /rollback/i.test(d) ? 0.99 : 0.01,
      }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((r) => rerankServer.listen(0, '127.0.0.1', r));
  rerankUrl = `http://127.0.0.1:${(rerankServer.address() as AddressInfo).port}/v1/rerank`;
  writeFileSync(
    join(dir, 'secrets.json'),
    JSON.stringify({ 'inquest/kteam/rerank': 'rk-e2e-secret' }),
  );
  const common = { INQUEST_LOG_LEVEL: 'silent', INQUEST_DATA_DIR: dir, INQUEST_GRPC_PORT: '0' };
  const deps = { bus, logger: silentLogger() };
  const config = await startConfigService(common, deps);
  stops.push(() => config.stop());
  const kb = await startKnowledge(
    {
      ...common,
      INQUEST_CONFIG_ADDR: config.address,
      INQUEST_EGRESS_ALLOW: '127.0.0.1',
      INQUEST_KB_SETTINGS_CACHE_MS: '0',
    },
    deps,
  );
  stops.push(() => kb.stop());
  gw = await startTestGateway(
    adminToken,
    { INQUEST_CONFIG_ADDR: config.address, INQUEST_KNOWLEDGE_ADDR: kb.address },
    deps,
  );
  stops.unshift(() => gw.stop());
  const hierarchy = hierarchyAdmin(gw.url, adminToken);
  await hierarchy.createNodes([
    ['korg', null, 'org'],
    ['kteam', 'korg', 'team'],
  ]);
  token = await hierarchy.issueToken('kteam', 'kb@example.com');
});

afterAll(async () => {
  for (const stop of stops) await stop();
  rerankServer?.close();
  await bus.close();
});

describe('rerankers (point 11)', () => {
  it.each([
    [
      'an unknown reranker name',
      { reranker: 'cohere-rerank-v3' },
      'knowledge_base.retrieval.reranker',
    ],
    ['a relative URL', { reranker: '/rerank' }, 'knowledge_base.retrieval.reranker'],
    [
      'a plain-text API key',
      { reranker: 'https://api.cohere.com/v2/rerank', reranker_api_key: 'co-plaintext' },
      'knowledge_base.retrieval.reranker_api_key',
    ],
    ['an empty model', { reranker_model: '' }, 'knowledge_base.retrieval.reranker_model'],
  ])('%s: 400 validation_error naming the field, nothing stored', async (_n, retrieval, field) => {
    const before = await call(token, 'GET', '/config/me/effective');
    const res = await call(token, 'PUT', '/config/me', { knowledge_base: { retrieval } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect((await call(token, 'GET', '/config/me/effective')).body).toEqual(before.body);
  });

  it.each(['none', 'mmr'])('accepts the built-in reranker %s', async (reranker) => {
    const res = await call(token, 'PUT', '/config/me', {
      knowledge_base: { retrieval: { reranker } },
    });
    expect(res.status).toBe(200);
  });

  it('calls a hosted reranker with its model and the API key from the vault reference', async () => {
    for (const content of [
      'Checkout latency: check the connection pool size and the database CPU first.',
      'Checkout latency after a deploy: rollback the release with helm rollback checkout.',
    ]) {
      expect((await call(token, 'POST', '/kb/teach', { content, type: 'runbook' })).status).toBe(
        201,
      );
    }
    const put = await call(token, 'PUT', '/config/me', {
      knowledge_base: {
        retrieval: {
          strategy: 'sparse',
          reranker: rerankUrl,
          reranker_model: 'rerank-v3.5',
          reranker_api_key: 'vault://inquest/kteam/rerank',
          min_relevance: 0,
        },
      },
    });
    expect(put.status).toBe(200);
    const res = await call(token, 'POST', '/kb/retrieve', { query: 'checkout latency', top_k: 2 });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.authorization).toBe('Bearer rk-e2e-secret');
    expect(calls[0]!.body).toMatchObject({ model: 'rerank-v3.5', query: 'checkout latency' });
    expect(res.body.results[0].content).toMatch(/rollback/);
  });
});
