import { existsSync } from 'node:fs';
import { startAlertmanager, startNodeExporter, startPrometheus } from './prometheus-servers';
import { waitFor } from './wait-for';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const getJson = async (url: string): Promise<Obj> => {
  const res = await fetch(url);
  return (await res.json()) as Obj;
};

describe('startPrometheus / startAlertmanager / startNodeExporter', () => {
  it('start the real servers: Prometheus scrapes node-exporter and itself and sends a firing alert to Alertmanager; stop removes their directories', async () => {
    const am = await startAlertmanager();
    const node = await startNodeExporter({ collectors: ['loadavg', 'meminfo'] });
    const prom = await startPrometheus({
      scrapeTargets: [{ job: 'node', targets: [node.url] }],
      rules: [
        {
          name: 'test',
          rules: [{ alert: 'AlwaysFiring', expr: 'vector(1) > 0', for: '0s' }],
        },
      ],
      alertmanagerUrl: am.url,
    });
    try {
      expect(prom.url).toBe(`http://127.0.0.1:${prom.port}`);
      const up = await waitFor(async () => {
        const r = await getJson(`${prom.url}/api/v1/query?query=up`);
        const jobs = (r.data.result as Obj[]).map((s) => `${s.metric.job}=${s.value[1]}`).sort();
        return jobs.length === 2 ? jobs : undefined;
      }, 15_000);
      expect(up).toEqual(['node=1', 'prometheus=1']);
      const alerts = await waitFor(async () => {
        const list = (await getJson(`${am.url}/api/v2/alerts`)) as unknown as Obj[];
        return list.length ? list : undefined;
      }, 15_000);
      expect(alerts[0]?.labels.alertname).toBe('AlwaysFiring');
    } finally {
      await Promise.all([prom.stop(), node.stop(), am.stop()]);
    }
    expect(existsSync(prom.dir)).toBe(false);
    await expect(fetch(`${prom.url}/-/ready`)).rejects.toThrow();
  });

  it('fails with the log tail when the config is bad, and when the binary cannot be spawned', async () => {
    await expect(startAlertmanager({ config: 'route: {}\nreceivers: [{}]\n' })).rejects.toThrow(
      /alertmanager exited/,
    );
    const saved = process.env['INQUEST_PROMETHEUS_BIN'];
    process.env['INQUEST_PROMETHEUS_BIN'] = '/nonexistent/prometheus';
    try {
      await expect(startPrometheus()).rejects.toThrow(/prometheus exited \(spawn .*ENOENT/);
    } finally {
      if (saved === undefined) delete process.env['INQUEST_PROMETHEUS_BIN'];
      else process.env['INQUEST_PROMETHEUS_BIN'] = saved;
    }
  });
});
