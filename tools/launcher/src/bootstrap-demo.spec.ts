import { InProcessEventBus } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { silentLogger } from '@inquest/observability';
import { configV1 } from '@inquest/proto';
import { tempDir } from '@inquest/testing';
import { start } from '@inquest/config-hierarchy-service';
import { bootstrapDemo } from './bootstrap-demo';

const dataDir = tempDir();

describe('bootstrapDemo', () => {
  it('creates the demo hierarchy once, with the demo tool server and a read-write token', async () => {
    const bus = new InProcessEventBus();
    const svc = await start(
      { INQUEST_GRPC_PORT: '0', INQUEST_DATA_DIR: dataDir, INQUEST_LOG_LEVEL: 'silent' },
      { bus, logger: silentLogger() },
    );
    const client = createClient(configV1.ConfigServiceClient, svc.address);
    try {
      const first = await bootstrapDemo(client, {
        demoToolServerUrl: 'http://127.0.0.1:8090',
        logger: silentLogger(),
      });
      expect(first.teamToken).toMatch(/^tok_[a-z2-7]{20}\./);
      const verified = await client.verifyToken({ token: first.teamToken! });
      expect(verified).toMatchObject({
        valid: true,
        token: { team_id: 'demo-team', permissions: ['read', 'write'] },
      });
      const eff = await client.getEffectiveConfig({ team_id: 'demo-team' });
      expect(eff.config).toMatchObject({
        org_id: 'demo',
        team_node_id: 'demo-team',
        mcp_servers: [{ name: 'demo', url: 'http://127.0.0.1:8090', enabled: true }],
      });
      expect((await client.getRawConfig({ team_id: 'demo-team' })).lineage).toEqual([
        'demo',
        'demo-group',
        'demo-team',
      ]);
      const second = await bootstrapDemo(client, {
        demoToolServerUrl: 'http://127.0.0.1:8090',
        logger: silentLogger(),
      });
      expect(second.teamToken).toBeUndefined();
      expect((await client.listTokens({ team_id: 'demo-team' })).tokens).toHaveLength(1);
    } finally {
      client.close();
      await svc.stop();
      await bus.close();
    }
  });
});
