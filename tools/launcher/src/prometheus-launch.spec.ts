import {
  freePort,
  startPrometheus,
  tempDir,
  type RunningHttpServerProcess,
} from '@inquest/testing';
import { startAllInOne } from './main';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('npm start with INQUEST_PROMETHEUS_URL', () => {
  const tokens: string[] = [];
  let prometheus: RunningHttpServerProcess;
  beforeAll(async () => {
    prometheus = await startPrometheus();
  });
  afterAll(async () => {
    await prometheus?.stop();
  });

  it('starts the Prometheus tool server in-process and registers it for demo-team, re-pointed at each start', async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const env = async () => ({
      PORT: String(await freePort()),
      INQUEST_DATA_DIR: dataDir,
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_DEMO_TOOLSERVER_PORT: String(await freePort()),
      INQUEST_PROMETHEUS_URL: prometheus.url,
    });
    const urls: string[] = [];
    for (let run = 0; run < 2; run++) {
      const app = await startAllInOne(await env(), (l) => lines.push(l));
      try {
        const banner = lines.find((l) => l.startsWith('Prometheus tool server: '))!;
        expect(banner).toContain(`(Prometheus ${prometheus.url}), registered for demo-team`);
        const url = /^Prometheus tool server: (\S+)/.exec(banner)![1]!;
        urls.push(url);
        const res = await fetch(`${url}/tools/prometheus_query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ parameters: { query: 'vector(3)' } }),
        });
        expect(((await res.json()) as Obj).result[0].value).toBe(3);
        const eff = await fetch(`${app.url}/api/v1/config/me/effective`, {
          headers: { authorization: `Bearer ${app.demoTeamToken ?? tokens[0]}` },
        });
        const servers = ((await eff.json()) as Obj).mcp_servers as Obj[];
        expect(servers.map((s) => s.name)).toEqual(['demo', 'prometheus']);
        expect(servers[1]).toMatchObject({ url, enabled: true });
        if (app.demoTeamToken) tokens.push(app.demoTeamToken);
      } finally {
        await app.stop();
        lines.length = 0;
      }
    }
    expect(urls[0]).not.toBe(urls[1]);
  }, 60_000);
});
