import { checkHealth } from '@inquest/grpc-kit';
import {
  freePort,
  startNatsServer,
  tempDir,
  waitFor,
  type RunningNatsServer,
} from '@inquest/testing';
import { spawnService, type SpawnedService } from './support/spawn-service';

/**
 * Distributed mode: config-hierarchy and the gateway as separate processes, talking gRPC
 * (token verification, admin API) and NATS JetStream (a token revocation reaches the gateway's
 * token cache through `inquest.v1.config.token_revoked`).
 */
describe('two services as separate processes over gRPC and NATS', () => {
  let nats: RunningNatsServer;
  let config: SpawnedService;
  let gateway: SpawnedService;
  let api: string;
  const admin = 'admin.distributed-mode-test-secret';

  beforeAll(async () => {
    nats = await startNatsServer();
    const grpcPort = await freePort();
    const httpPort = await freePort();
    const dataDir = tempDir();
    config = spawnService('config-hierarchy', {
      INQUEST_GRPC_PORT: String(grpcPort),
      INQUEST_DATA_DIR: dataDir,
      INQUEST_NATS_URL: nats.url,
    });
    gateway = spawnService('gateway', {
      PORT: String(httpPort),
      INQUEST_HTTP_HOST: '127.0.0.1',
      INQUEST_CONFIG_ADDR: `127.0.0.1:${grpcPort}`,
      INQUEST_NATS_URL: nats.url,
      INQUEST_ADMIN_TOKEN: admin,
    });
    api = `http://127.0.0.1:${httpPort}/api/v1`;
    // both processes up: config-hierarchy answers its gRPC health check, the gateway its /healthz
    await waitFor(
      async () =>
        (await checkHealth(`127.0.0.1:${grpcPort}`, 500)) &&
        (await fetch(`http://127.0.0.1:${httpPort}/healthz`)).ok,
      30_000,
      100,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\nconfig:\n${config.output()}\ngateway:\n${gateway.output()}`);
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await config?.stop();
    await nats?.stop();
  });

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const r = await fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    return {
      status: r.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
  };

  it('creates a hierarchy over gRPC and refuses a revoked token within 1 s via NATS', async () => {
    expect(
      (
        await call('POST', '/admin/nodes', admin, {
          node_id: 'acme',
          parent_id: null,
          kind: 'org',
          name: 'Acme',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call('POST', '/admin/nodes', admin, {
          node_id: 'payments',
          parent_id: 'acme',
          kind: 'team',
          name: 'Payments',
        })
      ).status,
    ).toBe(201);
    const issued = await call('POST', '/admin/nodes/payments/tokens', admin, {
      permissions: ['read'],
      owner: 'ops@acme.test',
    });
    expect(issued.status).toBe(201);
    const token = issued.body!['token'] as string;
    const tokenId = issued.body!['token_id'] as string;

    const effective = await call('GET', '/config/me/effective', token);
    expect(effective.status).toBe(200);
    expect(effective.body!['team_node_id']).toBe('payments');
    // cached now: only the NATS event can make the next answer a 401 within a second
    expect((await call('GET', '/config/me/effective', token)).status).toBe(200);

    expect((await call('DELETE', `/admin/tokens/${tokenId}`, admin)).status).toBe(204);
    const revokedAt = Date.now();
    await waitFor(
      async () => (await call('GET', '/config/me/effective', token)).status === 401,
      1000,
      20,
    );
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(1000);
  }, 30_000);
});
