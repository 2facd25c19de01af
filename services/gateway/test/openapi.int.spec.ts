import { CachedEffectiveConfigSource, grpcEffectiveConfigLoader } from '@inquest/config-client';
import type express from 'express';
import { Registry } from 'prom-client';
import { createClient } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import {
  alertsV1,
  configV1,
  investigationV1,
  knowledgeV1,
  notifierV1,
  toolsV1,
} from '@inquest/proto';
import { freePort } from '@inquest/testing';
import { createApp } from '../src/app';
import { ConfigTeamDirectory } from '../src/auth/team-directory';
import { TokenAuthenticator } from '../src/auth/token-authenticator';
import { toOpenApiPath } from '../src/openapi/openapi-document';
import { allRoutes, type ServiceClients } from '../src/routes/index';
import { createTestGateway } from './support/test-gateway';
import { testRoutes } from './support/test-routes';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
    headers: Record<string, unknown>;
  };
};

/** Every (METHOD, path) the express app's /api/v1 router really serves. */
function routerRoutes(app: express.Express): string[] {
  const out: string[] = [];
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  type Layer = {
    route?: { path: string; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  };
  for (const layer of stack) {
    for (const inner of layer.handle?.stack ?? []) {
      if (!inner.route) continue;
      for (const [m, on] of Object.entries(inner.route.methods))
        if (on && m !== '_all') out.push(`${m.toUpperCase()} ${inner.route.path}`);
    }
  }
  return out.sort();
}

function documentRoutes(doc: Doc): string[] {
  const out: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths))
    for (const m of Object.keys(ops)) out.push(`${m.toUpperCase()} ${path}`);
  return out.sort();
}

async function deadClients(): Promise<ServiceClients> {
  const a = async () => `127.0.0.1:${await freePort()}`;
  return {
    config: createClient(configV1.ConfigServiceClient, await a()),
    investigation: createClient(investigationV1.InvestigationServiceClient, await a()),
    knowledge: createClient(knowledgeV1.KnowledgeServiceClient, await a()),
    tools: createClient(toolsV1.ToolServiceClient, await a()),
    notifier: createClient(notifierV1.NotifierServiceClient, await a()),
    alerts: createClient(alertsV1.AlertServiceClient, await a()),
  };
}

describe('OpenAPI document', () => {
  it('lists exactly the routes the router serves (the real route modules)', async () => {
    const clients = await deadClients();
    const logger = silentLogger();
    const app = createApp({
      routes: allRoutes({
        clients,
        effectiveConfig: new CachedEffectiveConfigSource({
          load: grpcEffectiveConfigLoader(clients.config, 'gateway'),
        }),
        logger,
      }),
      authenticator: new TokenAuthenticator({ config: clients.config }),
      teams: new ConfigTeamDirectory(clients.config),
      logger,
      metrics: new Registry(),
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const port = (server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as Doc;
      expect(doc.openapi).toBe('3.1.0');
      const served = routerRoutes(app).map((r) => {
        const [m, p] = r.split(' ') as [string, string];
        return `${m} ${toOpenApiPath(p)}`;
      });
      expect(served).toContain('GET /openapi.json');
      expect(served).toContain('GET /docs');
      expect(documentRoutes(doc)).toEqual(served);
      // the webhooks Inquest sends, with their payloads
      const webhooks = (doc as { webhooks?: Record<string, { post?: unknown }> }).webhooks ?? {};
      expect(Object.keys(webhooks).sort()).toEqual([
        'config_change_decided',
        'investigation_complete',
      ]);
      expect(JSON.stringify(webhooks['investigation_complete'])).toContain('"error"');
      expect(JSON.stringify(webhooks['config_change_decided'])).toContain('applied_version');
    } finally {
      server.close();
      for (const c of Object.values(clients)) c.close();
    }
  });

  describe('content', () => {
    let doc: Doc;
    let gw: Awaited<ReturnType<typeof createTestGateway>>;
    beforeAll(async () => {
      gw = await createTestGateway({ routes: testRoutes });
      doc = (await gw.request('GET', '/api/v1/openapi.json')).body as Doc;
    });
    afterAll(() => gw.stop());

    it('matches the router for the test routes too, with path parameters in OpenAPI form', () => {
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/test/items/{item_id}', '/test/items', '/test/trigger']),
      );
      const put = doc.paths['/test/items/{item_id}']!['put'];
      expect(put.parameters).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ in: 'path', name: 'item_id', required: true }),
          expect.objectContaining({ in: 'header', name: 'X-Inquest-Team' }),
        ]),
      );
    });

    it('documents request bodies from the validating zod schemas', () => {
      const put = doc.paths['/test/items/{item_id}']!['put'];
      const schema = put.requestBody.content['application/json'].schema;
      expect(schema.properties.name).toEqual(
        expect.objectContaining({ type: 'string', minLength: 1, maxLength: 100 }),
      );
      expect(schema.required).toEqual(['name']);
      const query = doc.paths['/test/items']!['get'].parameters.find(
        (p: { name: string }) => p.name === 'limit',
      );
      expect(query).toEqual(expect.objectContaining({ in: 'query', required: false }));
    });

    it('documents error bodies, auth schemes and rate-limit headers', () => {
      expect(doc.components.schemas['ErrorBody']).toBeDefined();
      expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
        'admin',
        'bearer',
        'intakeSecret',
        'pagerdutySignature',
      ]);
      const get = doc.paths['/test/items']!['get'];
      expect(get.security).toEqual([{ bearer: [] }]);
      for (const status of ['400', '401', '403', '429', '500', '503']) {
        expect(get.responses[status].content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/ErrorBody',
        });
      }
      expect(Object.keys(get.responses['200'].headers)).toEqual(
        expect.arrayContaining([
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          'RateLimit-Policy',
          'RateLimit',
        ]),
      );
      expect(get.responses['429'].headers['Retry-After']).toBeDefined();
      expect(doc.paths['/test/admin-only']!['get'].security).toEqual([{ admin: [] }]);
      expect(doc.paths['/openapi.json']!['get'].security).toEqual([]);
      expect(doc.paths['/test/items/{item_id}']!['put'].responses['413']).toBeDefined();
    });

    it('serves a readable reference page and the vendored Redoc bundle without a token', async () => {
      const page = await gw.request('GET', '/api/v1/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toContain('spec-url="/api/v1/openapi.json"');
      expect(page.text).not.toMatch(/https?:\/\//);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self' blob:");
      const js = await gw.request('GET', '/api/v1/docs/redoc.standalone.js');
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toMatch(/javascript/);
      expect(js.text.length).toBeGreaterThan(100_000);
      const etag = js.headers.get('etag')!;
      expect(
        (
          await gw.request('GET', '/api/v1/docs/redoc.standalone.js', {
            headers: { 'if-none-match': etag },
          })
        ).status,
      ).toBe(304);
    });
  });
});
