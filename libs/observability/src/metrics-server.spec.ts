import { Counter } from 'prom-client';
import { createMetricsRegistry } from './metrics';
import { startMetricsServer } from './metrics-server';

describe('startMetricsServer', () => {
  it('serves the registry at GET /metrics and nothing else', async () => {
    const registry = createMetricsRegistry('metrics-test', false);
    const c = new Counter({ name: 'test_things_total', help: 'things', registers: [registry] });
    c.inc(3);
    const server = await startMetricsServer({ registry, port: 0 });
    try {
      const res = await fetch(`http://${server.address}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(await res.text()).toContain('test_things_total{service="metrics-test"} 3');
      expect((await fetch(`http://${server.address}/metrics?x=1`)).status).toBe(200);
      expect((await fetch(`http://${server.address}/`)).status).toBe(404);
      expect((await fetch(`http://${server.address}/metrics`, { method: 'POST' })).status).toBe(
        404,
      );
    } finally {
      await server.close();
    }
    await expect(fetch(`http://${server.address}/metrics`)).rejects.toThrow();
  });
});
